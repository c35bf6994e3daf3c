/** Where a command goes and whose events these are: context, aggregate name, tenant and id. */
export interface AggregateRef {
  readonly context: string;
  readonly aggregate: string;
  readonly tenantId: string;
  readonly id: string;
}

/** A target given to `scope.schedule`: the tenant defaults to the tenant of the commit that set it. */
export interface TargetRef {
  readonly context: string;
  readonly aggregate: string;
  readonly id: string;
  readonly tenantId?: string;
}

/** Wow's default tenant id. */
export const DEFAULT_TENANT = "(0)";

export function aggregateRef(context: string, aggregate: string, id: string, tenantId: string = DEFAULT_TENANT): AggregateRef {
  return { context, aggregate, tenantId, id };
}

export function sameRef(a: AggregateRef, b: AggregateRef): boolean {
  return a.context === b.context && a.aggregate === b.aggregate && a.tenantId === b.tenantId && a.id === b.id;
}

/** An unambiguous string key for an aggregate instance (parts may contain any character). */
export function refKey(ref: AggregateRef): string {
  return JSON.stringify([ref.context, ref.aggregate, ref.tenantId, ref.id]);
}

/** The aggregate a `refKey` names. */
export function refOfKey(key: string): AggregateRef {
  const [context, aggregate, tenantId, id] = JSON.parse(key) as [string, string, string, string];
  return { context, aggregate, tenantId, id };
}
