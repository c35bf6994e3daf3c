// Sagas: event handlers (`@OnEvent`), rejection handlers (`@OnRejected`) and jobs (`@OnSchedule`).
import type { HandlerDeclaration, Location, SagaDeclaration } from "../ast.js";
import type { ContextScope } from "../binder/symbols.js";
import type { JobModel, SagaEventHandlerModel, SagaModel, SagaRejectionHandlerModel } from "../model.js";
import { readAnnotations } from "./annotations.js";
import type { CheckContext } from "./context.js";
import { checkJob } from "./jobs.js";
import { checkDeclarationName } from "./names.js";
import { commandIn, eventIn, resolveList, resolveServices, scheduledCommands, sentCommands } from "./references.js";
import { where } from "../diagnostics/reporter.js";
import { exact } from "../parse/exact.js";

const handledEvent = {
  ...eventIn("a saga's `on`"),
  advice: "A saga reacts to events; to react to the rejection of a command it sent, mark the handler `@OnRejected`.",
};
const rejectedCommand = {
  ...commandIn("`@OnRejected on`"),
  advice: "`@OnRejected` handles the rejection of a command this saga sent or scheduled.",
};

export function checkSaga(decl: SagaDeclaration, scope: ContextScope, cx: CheckContext, complete: boolean): SagaModel {
  const { reporter, resolver } = cx;
  checkDeclarationName(decl.name, reporter);
  readAnnotations(decl.annotations, "saga", reporter);
  const sagaName = decl.name.text;
  const functions = new Map<string, Location>();
  const claimFunction = (name: string, loc: Location): void => {
    const other = functions.get(name);
    if (other !== undefined) reporter.report("WOW2011", { saga: sagaName, name, other: where(other) }, loc, [other]);
    else functions.set(name, loc);
  };
  const handledTargets = new Map<string, Location>();
  const eventHandlers: SagaEventHandlerModel[] = [];
  const rejectionHandlers: SagaRejectionHandlerModel[] = [];
  const jobs: JobModel[] = [];
  // The commands each member lists, even a member with an error elsewhere: one mistake, one error.
  const sent = new Set<string>();

  for (const member of decl.members) {
    if (member.kind === "Job") {
      const job = checkJob(member, sagaName, scope, cx);
      claimFunction(member.name.text, member.name.loc);
      for (const command of job.commands) sent.add(command.qualifiedName);
      if (job.model !== undefined) jobs.push(job.model);
      continue;
    }
    const annotations = readAnnotations(member.annotations, "saga handler", reporter);
    const services = resolveServices(member.params, scope, resolver, reporter);
    const blocking = annotations.has("Blocking");
    if (annotations.has("OnRejected")) {
      if (annotations.has("OnEvent")) reporter.report("WOW3018", {}, annotations.get("OnRejected")!.loc);
      const command = resolver.resolve(member.target, scope, rejectedCommand);
      if (command === undefined || !firstHandler(member, `rejected:${command.qualifiedName}`, "rejections of command", handledTargets, sagaName, cx)) continue;
      const fn = `on${command.name}Rejected`;
      claimFunction(fn, member.target.loc);
      rejectionHandlers.push({ decl: member, command, function: fn, services, blocking });
      continue;
    }
    const commands = resolveList(annotations.names("OnEvent", "commands"), scope, sentCommands, resolver, reporter);
    const schedules = resolveList(annotations.names("OnEvent", "schedules"), scope, scheduledCommands, resolver, reporter);
    for (const command of commands) sent.add(command.qualifiedName);
    for (const command of schedules) sent.add(command.qualifiedName);
    const event = resolver.resolve(member.target, scope, handledEvent);
    if (event === undefined || !firstHandler(member, `event:${event.qualifiedName}`, "event", handledTargets, sagaName, cx)) continue;
    const fn = `on${event.name}`;
    claimFunction(fn, member.target.loc);
    eventHandlers.push({
      decl: member,
      event,
      function: fn,
      services,
      commands,
      schedules: schedules.map((command) => ({ command, targetRequired: true })),
      blocking,
    });
  }

  if (complete) {
    for (const handler of rejectionHandlers) {
      if (!sent.has(handler.command.qualifiedName)) {
        reporter.report("WOW3020", { saga: sagaName, name: handler.decl.target.text }, handler.decl.target.loc);
      }
    }
  }
  return { decl, name: sagaName, eventHandlers: exact(eventHandlers), rejectionHandlers: exact(rejectionHandlers), jobs: exact(jobs) };
}

/** A saga handles each event, and the rejections of each command, once (WOW3019). */
function firstHandler(
  handler: HandlerDeclaration,
  key: string,
  what: string,
  handled: Map<string, Location>,
  saga: string,
  cx: CheckContext,
): boolean {
  const other = handled.get(key);
  if (other !== undefined) {
    cx.reporter.report("WOW3019", { saga, what, name: handler.target.text, other: where(other) }, handler.target.loc, [other]);
    return false;
  }
  handled.set(key, handler.target.loc);
  return true;
}
