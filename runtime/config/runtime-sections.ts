// Sections of wow.config.json that the runtime owns (not derived from .wow sources): `wow.http`,
// `wow.store`, and operations (`wow.runs`, `wow.log`, `wow.metrics`, `wow.alerts`, `wow.subscriptions`, `wow.cluster`). The compiler writes them into the generated `wow.config.schema.json`, so editors
// and the loader validate them like the rest.

/** A duration: milliseconds, "250ms", "1s", "1h30m", "30d" or ISO-8601 "PT1S". */
export const DURATION_SCHEMA = { type: ["string", "integer"], minimum: 1, pattern: "^\\s*([0-9]+(\\.[0-9]+)?\\s*(ms|s|m|h|d|w)\\s*)+$|^[0-9]+$|^[Pp]" } as const;

export const ALERT_TYPE_NAMES = ["job.failed", "timer.parked", "event.parked"] as const;

export const RUNTIME_SECTIONS_SCHEMA: Readonly<Record<string, object>> = {
  http: {
    type: "object",
    additionalProperties: false,
    description: "The HTTP API: bearer credentials (every admin call needs one) and limits.",
    properties: {
      credentials: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["token"],
          properties: {
            token: { type: "string", minLength: 16, description: "The bearer token (at least 16 characters)." },
            tenant: { type: "string", minLength: 1, description: "Binds the credential to one tenant's instances." },
            name: { type: "string" },
          },
        },
      },
      "body-limit": { type: "integer", minimum: 1, description: "Largest accepted request body, in bytes (default 1 MiB)." },
      console: {
        type: "object",
        additionalProperties: false,
        description: "The operator console: web pages for jobs, runs, timers and parked work, served by the host (same credentials as the API).",
        properties: {
          enabled: { type: "boolean", description: "Serve the console (default true)." },
          path: { type: "string", pattern: "^(/[A-Za-z0-9._~-]+)+$", description: "Where the console is served (default /wow/console)." },
        },
      },
    },
  },
  store: {
    type: "object",
    additionalProperties: false,
    description: "Where the store lives: a SQLite file (path, the default) or a PostgreSQL server (url).",
    properties: {
      path: { type: "string", minLength: 1, description: "The SQLite store's file (default wow.db)." },
      url: { type: "string", pattern: "^postgres(ql)?://", description: "A PostgreSQL server's database, postgres://user:password@host:port/database: the store lives there instead of in a SQLite file." },
      schema: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]{0,62}$", description: "PostgreSQL: the schema holding the store's tables, created and migrated at start (default wow)." },
      pool: { type: "integer", minimum: 1, description: "PostgreSQL: connections in the pool (default 10)." },
      "statement-timeout": { ...DURATION_SCHEMA, description: 'PostgreSQL: the longest a statement may run before the server cancels it (default "30s").' },
      synchronous: {
        enum: ["NORMAL", "FULL"],
        description: "SQLite's durability: NORMAL (default) keeps every acknowledged commit through a crash of the process; FULL also through a power loss, at the cost of a sync per commit.",
      },
      "integrity-check": { type: "boolean", description: "SQLite's quick integrity check of the file at start (default true; it reads every page once)." },
    },
    dependencies: { schema: ["url"], pool: ["url"], "statement-timeout": ["url"] },
  },
  runs: {
    type: "object",
    additionalProperties: false,
    description: "The run log: every job run and timer delivery attempt, kept in the store for operators.",
    properties: {
      enabled: { type: "boolean", description: "Record runs and attempts (default true)." },
      keep: { ...DURATION_SCHEMA, description: 'How long runs and attempts are kept (default "30d").' },
      "per-instance": { type: "integer", minimum: 1, description: "Runs kept per job instance at most (default 10,000)." },
    },
  },
  log: {
    type: "object",
    additionalProperties: false,
    properties: {
      level: { enum: ["trace", "debug", "info", "warn", "error", "fatal", "silent"], description: "The structured log's level (default info): one JSON line per job run, park, re-drive and admin action." },
    },
  },
  metrics: {
    type: "object",
    additionalProperties: false,
    properties: {
      enabled: { type: "boolean", description: "Count deliveries, runs, decisions and store errors for GET /wow/metrics (default true)." },
    },
  },
  alerts: {
    type: "object",
    additionalProperties: false,
    properties: {
      webhook: {
        type: "object",
        additionalProperties: false,
        required: ["url", "secret"],
        description: "POSTs each alert as signed JSON (header Wow-Signature: t=<ms>,v1=<HMAC-SHA256 of \"<t>.<body>\">), retried with backoff.",
        properties: {
          url: { type: "string", pattern: "^https?://", description: "Where alerts are posted." },
          secret: { type: "string", minLength: 16, description: "The HMAC key (at least 16 characters)." },
          events: { type: "array", items: { enum: [...ALERT_TYPE_NAMES] }, uniqueItems: true, description: "The alerts it gets (default: all)." },
          "max-attempts": { type: "integer", minimum: 1, description: "Attempts per alert (default 8)." },
          timeout: { ...DURATION_SCHEMA, description: 'How long one POST may take (default "10s").' },
        },
      },
    },
  },
  subscriptions: {
    type: "object",
    additionalProperties: false,
    properties: {
      "blocking-concurrency": { type: "integer", minimum: 1, description: "Events a @Blocking handler's subscription handles at once (default 8); one aggregate's still in order." },
    },
  },
  cluster: {
    type: "object",
    additionalProperties: false,
    description: "Several hosts on one PostgreSQL store: membership, partition leases and failover (SQLite serves one host).",
    properties: {
      heartbeat: { ...DURATION_SCHEMA, description: 'How often a host renews its membership and partition leases (default "2s").' },
      lease: { ...DURATION_SCHEMA, description: 'How long a host that stops heartbeating keeps its partitions and timer claims before the others take them over (default "10s"; at least twice the heartbeat).' },
      partitions: { type: "integer", minimum: 1, maximum: 1024, description: "Journal partitions (streams hashed by aggregate), each owned by one host at a time (default 16); every host of a store uses the same count." },
    },
  },
};
