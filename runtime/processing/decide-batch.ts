// `decide` applied to many commands at once, for one commit of them all: commands of one aggregate are
// decided in order, each on the stream as the previous one's commit leaves it.
import { refKey } from "../model/aggregate-ref.js";
import type { CommandMessage } from "../model/messages.js";
import type { Commit, DecisionInput, StoredStream } from "../store/event-store.js";
import { UnroutableCommandError } from "./command-results.js";
import { decide, type Decided, type DecideOptions } from "./decide.js";
import type { AggregateRegistry } from "./registry.js";

/**
 * A command of a batch: decided (its commit, if any, not yet written), failed (a technical failure: the
 * handler threw, or no aggregate handles it), or to be sent the ordinary way after the batch (a command
 * after a failed one of its aggregate, which it would have been decided on top of).
 */
export type BatchDecision = { readonly kind: "decided"; readonly decided: Decided } | { readonly kind: "failed"; readonly error: unknown } | { readonly kind: "fallback" };

const FALLBACK: BatchDecision = Object.freeze({ kind: "fallback" });

/** Decides `commands[i]` on `inputs[i]` (what it meets as read for the batch), in order. */
export async function decideBatch(registry: AggregateRegistry, commands: readonly CommandMessage[], inputs: readonly DecisionInput[], options: DecideOptions): Promise<BatchDecision[]> {
  /** Streams as this batch left them so far; `null`: an earlier command of the aggregate failed. */
  const streams = new Map<string, StoredStream | null>();
  const decisions = new Array<BatchDecision>(commands.length);
  for (let i = 0; i < commands.length; i++) {
    const command = commands[i]!;
    const key = refKey(command.aggregate);
    const seen = streams.get(key);
    if (seen === null) {
      decisions[i] = FALLBACK;
      continue;
    }
    const route = registry.routeFor(command);
    if (!route) {
      decisions[i] = { kind: "failed", error: new UnroutableCommandError(command) };
      continue;
    }
    const input = inputs[i]!;
    try {
      const decided = await decide(route, command, seen !== undefined && input.stream !== undefined ? { stream: seen } : input, options);
      decisions[i] = { kind: "decided", decided };
      const stream = seen ?? input.stream;
      if (decided.kind !== "duplicate" && decided.commit !== undefined && stream !== undefined) streams.set(key, after(decided.commit, stream));
    } catch (error) {
      decisions[i] = { kind: "failed", error };
      streams.set(key, null);
    }
  }
  return decisions;
}

/** The stream once `commit` is appended (its events without positions: enough to decide on), from its snapshot when it made one. */
function after(commit: Commit, stream: StoredStream): StoredStream {
  if (commit.events.length === 0 && !commit.deleted) return stream;
  const deleted = stream.deleted || commit.deleted === true;
  if (commit.snapshot !== undefined) return { version: commit.request.version, deleted, events: [], snapshot: commit.snapshot };
  return { version: commit.request.version, deleted, events: [...stream.events, ...commit.events], ...(stream.snapshot === undefined ? {} : { snapshot: stream.snapshot }) };
}
