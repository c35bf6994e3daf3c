// Sections of wow.config.json that the runtime owns (not derived from .wow sources): `wow.http`
// and `wow.store`. The compiler writes them into the generated `wow.config.schema.json`, so editors
// and the loader validate them like the rest.

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
    },
  },
  store: {
    type: "object",
    additionalProperties: false,
    properties: {
      path: { type: "string", minLength: 1, description: "The SQLite store's file (default wow.db)." },
      synchronous: {
        enum: ["NORMAL", "FULL"],
        description: "SQLite's durability: NORMAL (default) keeps every acknowledged commit through a crash of the process; FULL also through a power loss, at the cost of a sync per commit.",
      },
      "integrity-check": { type: "boolean", description: "SQLite's quick integrity check of the file at start (default true; it reads every page once)." },
    },
  },
};
