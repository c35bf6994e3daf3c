// The API's bodies as the pages read them (times are ISO-8601 strings).

export interface Rule {
  readonly expression: string;
  readonly zone: string;
  readonly misfire?: string;
}

export interface Run {
  readonly id: string;
  readonly slot: number;
  readonly due: string;
  readonly started: string;
  readonly finished: string;
  readonly durationMs: number;
  readonly kind: string;
  readonly outcome: string;
  readonly attempt: number;
  readonly error?: string;
  readonly commands: readonly string[];
  readonly host: string;
}

export interface Job {
  readonly context: string;
  readonly id: string;
  readonly job: string;
  readonly tenantId: string;
  readonly scope: "SYSTEM" | "TENANT";
  readonly enabled: boolean;
  readonly rule: Rule;
  readonly ruleWords: string;
  readonly partition?: number;
  readonly nextFireTimes: readonly string[];
  readonly paused?: { readonly note: string; readonly at: string };
  readonly lastRun?: Run;
}

export interface Timer {
  readonly id: string;
  readonly owner: AggregateRef;
  readonly key: string;
  readonly target: AggregateRef;
  readonly command: string;
  readonly slot: number;
  readonly due: string;
  readonly status: string;
  readonly attempts: number;
  readonly lastError?: string;
  readonly parkedAt?: string;
}

export interface AggregateRef {
  readonly context: string;
  readonly aggregate: string;
  readonly tenantId: string;
  readonly id: string;
}

export interface ParkedEvent {
  readonly id: string;
  readonly subscription: string;
  readonly position: number;
  readonly eventType: string;
  readonly aggregate: AggregateRef;
  readonly attempts: number;
  readonly error: string;
  readonly parkedAt: string;
}

export interface Overview {
  readonly now: string;
  readonly tenant?: string;
  readonly jobs: { readonly enabled: number; readonly paused: number; readonly disabled: number };
  readonly timers: { readonly dueWithinHour: number; readonly parked: number };
  readonly events: { readonly parked: number };
  readonly runs?: { readonly failedLast24h: number };
  readonly hosts: readonly { readonly id: string; readonly store: string; readonly partitions: number; readonly owned: readonly number[] }[];
  readonly metrics: boolean;
}

export interface LatenessMinute {
  readonly at: string;
  readonly count: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

export interface Preview {
  readonly expression: string;
  readonly zone: string;
  readonly words: string;
  readonly times: readonly string[];
  readonly neverFires?: boolean;
}

/** `GET /wow/session`: the credential's name, and its tenant when it is bound to one. */
export interface SessionInfo {
  readonly name: string;
  readonly tenant?: string;
}
