// Whether a host can do its work (`GET /wow/ready`): started, not halted by a damaged store, its loops
// running, and its store taking writes. The reason, when not, says which without revealing more.
import type { LoopState } from "../loop/poll-loop.js";
import type { Store } from "../store/store.js";

import type { Readiness } from "../http/host-api.js";

interface ReadinessSource {
  readonly store: Store;
  status(): { readonly state: "running" | "stopped" | "halted"; readonly loops: readonly LoopState[] };
}

export async function readiness(host: ReadinessSource): Promise<Readiness> {
  const status = host.status();
  if (status.state === "halted") return { ready: false, reason: "halted: the store is damaged" };
  if (status.state === "stopped") return { ready: false, reason: "stopped" };
  const idle = status.loops.find((loop) => !loop.running);
  if (idle !== undefined) return { ready: false, reason: `the ${idle.name} loop is not running` };
  try {
    await host.store.probe?.();
  } catch (error) {
    return { ready: false, reason: `the ${host.store.kind} store takes no writes: ${(error as Error).message.split("\n")[0]}` };
  }
  return { ready: true };
}
