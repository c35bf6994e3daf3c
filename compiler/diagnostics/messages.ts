// The one table of diagnostics: every code the compiler reports, its severity, its message template
// and the hint that tells the user what to do. Templates name their arguments in braces; the types
// below make every `report(code, args)` pass exactly those arguments.
//
// Ranges: WOW1xxx syntax (grammar/), WOW2xxx names and resolution, WOW3xxx declarations, handlers
// and annotations, WOW4xxx jobs and cron, WOW5xxx host cross-check, WOW6xxx build and config,
// WOW7xxx tools (diff, init), WOW9999 internal error.

export type Severity = "error" | "warning";

export interface MessageDefinition {
  readonly severity: Severity;
  readonly message: string;
  readonly hint?: string;
}

export const messages = {
  // ── WOW1xxx: syntax ───────────────────────────────────────────────────────────────────────────
  WOW1001: {
    severity: "error",
    message: "Unexpected character '{text}'.",
    hint: "Remove it; `.wow` files hold names, numbers, strings, comments, braces, parentheses, brackets and `, : = . ? @`.",
  },
  WOW1002: {
    severity: "error",
    message: "Unexpected {found}: expected {expected}.",
    hint: "{advice}",
  },
  WOW1003: {
    severity: "error",
    message: "Unterminated string: it needs a closing '\"' on the same line.",
    hint: "Close the string with '\"'; inside a string write '\\\"' for a quote and '\\\\' for a backslash.",
  },
  WOW1004: {
    severity: "error",
    message: "Unterminated comment: '/*' has no matching '*/'.",
    hint: "Close the comment with '*/'; everything after '/*' to the end of the file was read as a comment.",
  },
  WOW1005: {
    severity: "error",
    message: "A file must begin with `context <name>`; found {found}.",
    hint: "Add a first line such as `context eshop-order`: the bounded context this file's declarations belong to.",
  },
  WOW1006: {
    severity: "error",
    message: "Unexpected {found}: expected '}' to close {block}.",
    hint: "The block opened at line {line} is never closed; add its closing brace.",
  },
  WOW1007: {
    severity: "error",
    message: "Unexpected {found}: expected {what}.",
    hint: "A name starts with a letter or '_' and continues with letters, digits, '_' or single '-' (`eshop-order`); words such as `type`, `state` or `on` are names too.",
  },
  WOW1008: {
    severity: "error",
    message: "Unknown escape sequence '{escape}' in a string.",
    hint: "Strings know \\\" \\\\ \\/ \\n \\r \\t \\b \\f, \\uXXXX and \\u with 1 to 6 hex digits in braces; write '\\\\' for a backslash.",
  },
  WOW1009: {
    severity: "error",
    message: "A second `context` clause: a file belongs to one context, named once on its first line.",
    hint: "Put the declarations of another context in a file of their own.",
  },
  WOW1010: {
    severity: "error",
    message: "{what} cannot be declared {where}.",
    hint: "{advice}",
  },
  WOW1011: {
    severity: "error",
    message: "Missing ',' or new line between {items}.",
    hint: "Separate {items} with commas, or write each on its own line.",
  },
  WOW1012: {
    severity: "error",
    message: "Unexpected {found}: an annotation must be followed by {what}.",
    hint: "Annotations such as `@OnCommand(…)` are written just before the declaration they apply to.",
  },
  WOW1013: {
    severity: "error",
    message: "Lists nest more than {depth} deep here.",
    hint: "An annotation's value is a name, a string, a number, a boolean or a list of them; what is nested deeper is skipped.",
  },
  WOW1014: {
    severity: "error",
    message: "{count} syntax errors by here: the rest of this file was not read.",
    hint: "Fix the first errors and build again. So many usually means this is not a .wow source (another language, generated or binary content).",
  },

  // ── WOW2xxx: names and resolution ────────────────────────────────────────────────────────────
  WOW2001: {
    severity: "error",
    message: "Unknown type '{name}'.",
    hint: "{suggestion}Declare it in {where} as `type {simple}` or `enum {simple}`, or use a built-in type: string, int, long, decimal, boolean, instant, duration.",
  },
  WOW2002: {
    severity: "error",
    message: "Unknown command '{name}'.",
    hint: "{suggestion}Commands are declared inside an aggregate of {where} (`command {simple}`); use `context-name.{simple}` for a command of another context.",
  },
  WOW2003: {
    severity: "error",
    message: "Unknown event '{name}'.",
    hint: "{suggestion}Events are declared inside an aggregate of {where} (`event {simple}`); use `context-name.{simple}` for an event of another context.",
  },
  WOW2004: {
    severity: "error",
    message: "Unknown service '{name}'.",
    hint: "{suggestion}Declare the dependency with `service {simple}` in {where}.",
  },
  WOW2005: {
    severity: "error",
    message: "Unknown context '{name}'.",
    hint: "{suggestion}A qualified reference is `context-name.Name`, where some file of the build starts with `context context-name`.",
  },
  WOW2006: {
    severity: "error",
    message: "'{name}' is {actual}, but {place} needs {expected}.",
    hint: "{suggestion}",
  },
  WOW2007: {
    severity: "error",
    message: "'{name}' is declared twice in context '{context}'.",
    hint: "Types, enums, services, aggregates, sagas, commands and events of one context share one namespace; the other declaration is at {other}. Rename one of them.",
  },
  WOW2008: {
    severity: "error",
    message: "Field '{name}' is declared twice in {owner}.",
    hint: "Remove or rename one of the two fields.",
  },
  WOW2009: {
    severity: "error",
    message: "Enum value '{name}' is listed twice in enum '{owner}'.",
    hint: "Remove the second '{name}'.",
  },
  WOW2010: {
    severity: "error",
    message: "Parameter '{name}' is declared twice.",
    hint: "Each parameter of a handler or job needs its own name.",
  },
  WOW2011: {
    severity: "error",
    message: "Saga '{saga}' would have two functions named '{name}'.",
    hint: "The other one is at {other}. Handlers are named on<Event> and on<Command>Rejected, jobs by their function: rename the job function, or handle same-named events of two contexts in two sagas.",
  },
  WOW2012: {
    severity: "error",
    message: "The SDK of context '{context}' would export '{name}' twice: for {what} and for {other}.",
    hint: "A context's generated module exports the name of each type, enum, command and event, `<Command>Command` and `<Event>Event`, and for an aggregate `<Aggregate>` and `…State`, `…Events`, `…Decision`, `…ServiceTypes`, `…Handlers` and `define…` (for a saga the last three). Rename {declaration}.",
  },

  // ── WOW3xxx: declarations, handlers and annotations ──────────────────────────────────────────────
  WOW3002: {
    severity: "error",
    message: "Invalid context name '{name}'.",
    hint: "A context name is lower-case words of letters and digits joined by '-', such as `eshop-order`.",
  },
  WOW3003: {
    severity: "error",
    message: "The context name '{name}' is reserved.",
    hint: "`wow` and names beginning with `wow.` belong to the runtime's system aggregates; pick another name.",
  },
  WOW3004: {
    severity: "error",
    message: "'{name}' cannot be used as the name of a declaration.",
    hint: "It is {reason}, so the generated TypeScript cannot declare it; rename it (e.g. '{suggestion}').",
  },
  WOW3005: {
    severity: "error",
    message: "Aggregate '{aggregate}' cannot handle '{command}': the command belongs to aggregate '{owner}'.",
    hint: "An aggregate handles only its own commands; move this handler into aggregate '{owner}'.",
  },
  WOW3006: {
    severity: "error",
    message: "Command '{name}' is handled more than once.",
    hint: "Each command is handled exactly once; the other handler is at {other}. Remove one of them.",
  },
  WOW3007: {
    severity: "error",
    message: "Command '{name}' has no handler.",
    hint: "Add `on {name}` (with `@OnCommand(produces = […])`) to aggregate '{aggregate}', or remove the command.",
  },
  WOW3008: {
    severity: "warning",
    message: "Event '{name}' is produced by no handler.",
    hint: "List it in the `produces` of a command handler of aggregate '{aggregate}', or remove the event.",
  },
  WOW3009: {
    severity: "error",
    message: "'{event}' is an event of aggregate '{owner}'; a handler of aggregate '{aggregate}' can only produce its own events.",
    hint: "List only events declared in aggregate '{aggregate}' in `produces`; to make '{owner}' react, send it a command from a saga.",
  },
  WOW3010: {
    severity: "error",
    message: "Unknown annotation '@{name}'.",
    hint: "{suggestion}The annotations are @CreateAggregate, @DeleteAggregate, @OnCommand, @OnEvent, @OnRejected, @OnSchedule and @Blocking.",
  },
  WOW3011: {
    severity: "error",
    message: "'@{name}' is written more than once.",
    hint: "Remove the repeated annotation.",
  },
  WOW3012: {
    severity: "error",
    message: "'@{name}' is not allowed on {place}.",
    hint: "'@{name}' belongs on {allowed}.",
  },
  WOW3013: {
    severity: "error",
    message: "'@{annotation}' has no argument '{name}'.",
    hint: "{suggestion}{allowed}",
  },
  WOW3014: {
    severity: "error",
    message: "Argument '{name}' of '@{annotation}' must be {expected}, not {actual}.",
    hint: "Write it as {example}.",
  },
  WOW3015: {
    severity: "error",
    message: "'@{annotation}' needs the argument '{name}'.",
    hint: "Add it, for example {example}.",
  },
  WOW3016: {
    severity: "error",
    message: "Argument '{name}' is given twice.",
    hint: "Keep one '{name} = …'.",
  },
  WOW3017: {
    severity: "error",
    message: "A command cannot be both @CreateAggregate and @DeleteAggregate.",
    hint: "Keep the one that describes what '{name}' does; a create command starts an aggregate, a delete command ends it.",
  },
  WOW3018: {
    severity: "error",
    message: "A saga handler cannot be both @OnEvent and @OnRejected.",
    hint: "Use @OnEvent to react to an event, @OnRejected to react to the rejection of a command this saga sent.",
  },
  WOW3019: {
    severity: "error",
    message: "Saga '{saga}' already handles {what} '{name}'.",
    hint: "The other handler is at {other}. Merge the two into one handler.",
  },
  WOW3020: {
    severity: "warning",
    message: "Saga '{saga}' never sends or schedules '{name}', so this rejection handler never runs.",
    hint: "A saga receives rejections only of the commands it lists in `commands` or `schedules`; list '{name}' there or remove this handler.",
  },
  WOW3021: {
    severity: "warning",
    message: "'{name}' is listed twice.",
    hint: "Remove the repeated entry.",
  },
  WOW3022: {
    severity: "error",
    message: "Aggregate '{name}' has more than one `state` block.",
    hint: "Put all the state fields into one `state` block.",
  },
  WOW3023: {
    severity: "error",
    message: "Contexts '{other}' and '{name}' would both be '{alias}' in the SDK.",
    hint: "The generated SDK names a context in camelCase (`eshop-order` is `eshopOrder`), so names that differ only by a '-' before a digit meet; rename one of the two contexts.",
  },
  WOW3024: {
    severity: "error",
    message: "Command '{name}' would have the HTTP route of '{other}': `{method} {path}`.",
    hint: "Routes spell aggregates and commands in snake_case (`PayOrder` is `pay_order`), so names that differ only in capitals or '_' meet, and only one of the two commands could be reached; rename one of them.",
  },
  WOW3025: {
    severity: "error",
    message: "Context '{name}' would be '{alias}' in the SDK, a name the SDK's root module already exports.",
    hint: "The generated SDK names a context in camelCase beside its own exports (`loadConfig`, `configSchema`, `aggregateType`, …), and the context would hide the SDK's own '{alias}'; rename the context.",
  },
  WOW3026: {
    severity: "error",
    message: "'{name}' cannot be a name in the generated SDK: {module} would export `then`, and a module with a `then` is taken for a promise.",
    hint: "`await import(…)` of such a module calls that `then` and never settles. {exports}; rename it (e.g. '{suggestion}').",
  },
  WOW3027: {
    severity: "error",
    message: "The subscription '{name}' of {what} in context '{context}' is already the subscription of a saga of context '{otherContext}' (at {other}).",
    hint: "A saga's event handlers and jobs subscribe as `<saga>.<function>`, without the context (the runtime keeps each one's checkpoint under that name), so one host could not run both; rename one of the two sagas '{saga}'.",
  },

  // ── WOW4xxx: jobs and cron (WOW4001 and WOW4002 are shared with `wowc cron`) ──────────────────────
  WOW4001: {
    severity: "error",
    message: "Invalid cron expression: {detail}",
    hint: "A cron rule has six fields: second minute hour day-of-month month day-of-week (e.g. \"0 0 6 * * *\" is every day at 06:00).",
  },
  WOW4002: {
    severity: "error",
    message: "The cron expression '{expression}' can never fire.",
    hint: "No date matches every field (e.g. the 30th of February); check the day-of-month, month and day-of-week fields.",
  },
  WOW4003: {
    severity: "error",
    message: "Job '{name}' has no @OnSchedule annotation.",
    hint: "Write `@OnSchedule(name = \"{name}\", cron = \"0 0 * * * *\", commands = […])` before `job {name}`.",
  },
  WOW4004: {
    severity: "error",
    message: "Job name '{name}' is already used in context '{context}'.",
    hint: "Job names are the ids of the context's schedule instances; the other job is at {other}. Pick another name.",
  },
  WOW4005: {
    severity: "error",
    message: "Invalid job name '{name}': {reason}.",
    hint: "A job name is one or more letters, digits, '_' and '-' (e.g. \"receive-deliveries\"), other than `__proto__`: it is the job's key under `wow.schedules` in the runtime configuration.",
  },
  WOW4006: {
    severity: "error",
    message: "Unknown time zone '{zone}'.",
    hint: "{suggestion}Use an IANA zone name such as \"UTC\", \"Europe/Paris\" or \"America/New_York\".",
  },
  WOW4007: {
    severity: "error",
    message: "A job with `scope = TENANT` cannot be `sharded = true`.",
    hint: "Sharding splits one SYSTEM instance over the journal partitions; use `scope = SYSTEM` or drop `sharded = true`.",
  },
  WOW4008: {
    severity: "error",
    message: "Unknown {argument} '{value}'.",
    hint: "{suggestion}'{argument}' is one of: {allowed}.",
  },
  WOW4009: {
    severity: "error",
    message: "Job '{name}' would share its environment variables with job '{other}' ({variable} and the rest).",
    hint: "A job's settings are overridden by variables named from its key under `wow.schedules` in SCREAMING_SNAKE_CASE, so names that differ only in capitals or in '-', '_' and '.' meet; rename one of the two jobs.",
  },
  WOW4010: {
    severity: "error",
    message: "The cron expression '{expression}' never fires in {zone}: each time it matches falls in a daylight-saving gap, when the clocks skip ahead.",
    hint: "Local times that do not exist are skipped, as in Spring; move the job out of the gap (e.g. 03:00 instead of 02:00), or give it zone = \"UTC\".",
  },
  WOW4011: {
    severity: "warning",
    message: "The cron expression '{expression}' skips {date} {time} in {zone}: that local time falls in a daylight-saving gap, when the clocks skip ahead, so the job does not run then.",
    hint: "Local times that do not exist are skipped, not moved (as in Spring); move the job out of the gap (e.g. 03:30 instead of 02:30), or give it zone = \"UTC\". `wowc cron \"{expression}\" --zone {zone} --from {from}` lists the fire times around it.",
  },
  WOW4012: {
    severity: "error",
    message: "'{argument}' of @{annotation} is not a duration: \"{value}\".",
    hint: "Write a duration of at least 1 ms: \"250ms\", \"30s\", \"5m\", \"2h\", \"1d\" (combinable: \"1h30m\"), or ISO-8601 \"PT5M\".",
  },
  WOW4013: {
    severity: "error",
    message: "maxAttempts must be a whole number from 1 to {limit}, got {value}.",
    hint: "It counts every attempt, the first included: maxAttempts = 1 parks the work after one failure.",
  },
  WOW4014: {
    severity: "error",
    message: "maxBackoff \"{maxBackoff}\" is shorter than backoff \"{backoff}\".",
    hint: "The delay doubles from backoff after each failure and stops growing at maxBackoff: make maxBackoff at least backoff, or leave it out.",
  },
  WOW4015: {
    severity: "warning",
    message: "@Blocking has no effect on a command handler.",
    hint: "A command's decision runs inside its own commit, never on a subscription's loop; remove @Blocking here. On a saga handler or a job it takes the handler out of its subscription's ordered loop, so a slow call does not hold up the events behind it.",
  },

  // ── WOW5xxx: host cross-check (`wowc check --host <tsconfig>`) ─────────────────────────────────
  WOW5001: {
    severity: "error",
    message: "{command} is scheduled here, but {annotation}(schedules = [...]) of {function} does not list it.",
    hint: "Add {command} to `schedules` of the declaration `{declaration}` at {where}, or remove the call.",
  },
  WOW5002: {
    severity: "error",
    message: "{command} is sent here with `command(…)`, but {annotation}(commands = [...]) of {function} does not list it.",
    hint: "Add {command} to `commands` of the declaration `{declaration}` at {where}, or remove the call.",
  },
  WOW5003: {
    severity: "warning",
    message: "{command} is declared in `schedules` of `{declaration}`, but no implementation of {function} schedules it.",
    hint: "Remove {command} from `schedules`, or schedule it in {implementations}.",
  },
  WOW5004: {
    severity: "warning",
    message: "{command} is declared in `commands` of `{declaration}`, but no implementation of {function} sends it.",
    hint: "Remove {command} from `commands`, or send it with `context.command(target, …)` in {implementations}.",
  },
  WOW5005: {
    severity: "warning",
    message: "The command type of this `{method}(…)` cannot be determined: its argument is typed `{type}`.",
    hint: "Build the command with a generated factory (such as `{example}(…)`) or type it with a generated command type; until then wowc cannot check this call, and does not report declared commands of {function} as unused.",
  },
  WOW5006: {
    severity: "error",
    message: "Cannot read the host project '{path}': {reason}",
    hint: "Pass the tsconfig.json of the TypeScript project that implements the handlers: `wowc check --host path/to/tsconfig.json`.",
  },
  WOW5007: {
    severity: "warning",
    message: "The host project '{path}' calls no generated `define…` function of the SDK in '{sdk}': nothing was cross-checked.",
    hint: "Implement the handlers with the generated functions (such as `{example}(…)`) in files the tsconfig includes, and run `wowc build` first; if the SDK is elsewhere, pass it with --out.",
  },
  WOW5008: {
    severity: "warning",
    message: "wowc cannot read the implementation given to `{define}(…)` at {where}, so its handlers were not cross-checked.",
    hint: "Pass an object literal, a variable or `export default` that holds one, or the call of a function that returns one; until then no command of {owner} is reported as unused.",
  },

  // ── WOW6xxx: build ────────────────────────────────────────────────────────────────────────────
  WOW6001: {
    severity: "error",
    message: "No .wow files found under '{dir}'.",
    hint: "Run wowc in the directory that holds your .wow sources, or pass it: `wowc build path/to/dir`.",
  },
  WOW6002: {
    severity: "error",
    message: "Cannot read '{path}': {reason}",
    hint: "Check that the file or directory exists and that you may read it; the other sources are still checked.",
  },
  WOW6003: {
    severity: "error",
    message: "Cannot write '{path}': {reason}",
    hint: "Check that the directory is writable and that nothing is in the way of this path; a build's output directory can be chosen with --out. A build writes all its files or none: the output directory keeps its previous content.",
  },
  WOW6004: {
    severity: "error",
    message: "This file is not UTF-8: the byte {byte} here does not start a complete UTF-8 character.",
    hint: "`.wow` files are read as UTF-8, and this one was probably saved in another encoding (Latin-1, Windows-1252); save it as UTF-8. Until then, `wowc fmt` leaves it as it is.",
  },
  WOW6005: {
    severity: "error",
    message: "The output directory '{dir}' holds files wowc did not write (such as '{file}'): nothing was written.",
    hint: "wowc owns its output directory: it overwrites and deletes the files it generates there. Pass an empty or new directory with --out, or empty this one.",
  },
  WOW6006: {
    severity: "error",
    message: "Invalid command line: {detail}",
    hint: "{advice}",
  },
  WOW6007: {
    severity: "error",
    message: "wow.config.json does not fit the declarations: {detail}",
    hint: "{suggestion}The file's schema is generated from the `.wow` sources (`wow.schedules` holds the declared jobs, by name; `wowc build` writes it to generated/wow.config.schema.json), and the runtime refuses a file that does not fit it when it starts.",
  },

  // ── WOW7xxx: tools (`wowc diff`, `wowc init`) ─────────────────────────────────────────────────
  WOW7001: {
    severity: "error",
    message: "Cannot compare '{input}': {reason}",
    hint: "Pass two wow-manifest.json files written by `wowc build` (or two directories of .wow sources), or use --against <git-ref> [dir].",
  },
  WOW7002: {
    severity: "error",
    message: "'{ref}' is not a git revision of the repository at '{dir}'.",
    hint: "Use a branch, tag or commit such as main, origin/main or HEAD~1; in CI, fetch it first (actions/checkout with fetch-depth: 0).",
  },
  WOW7003: {
    severity: "error",
    message: "{input} has errors, so it has no manifest to compare.",
    hint: "Fix the errors above (`wowc check` lists them), then run `wowc diff` again.",
  },
  WOW7004: {
    severity: "error",
    message: "Invalid accept list '{path}': {reason}",
    hint: 'Write a JSON object whose "accept" lists "RULE:element" strings, such as "FIELD_SAME_TYPE:eshop-order.Order.PayOrder.amount"; `wowc diff --help` lists the rules.',
  },
  WOW7101: {
    severity: "error",
    message: "'{dir}' already has {files}; nothing was written.",
    hint: "Pass --force to overwrite them, or run `wowc init` on an empty or new directory.",
  },
  WOW7102: {
    severity: "error",
    message: "'{name}' cannot name a context.",
    hint: "Use lower-case words joined by '-', such as my-tasks, and not 'wow'; pass it with --context.",
  },
  WOW7103: {
    severity: "error",
    message: "'{name}' cannot name an npm package: {reason}.",
    hint: "Use lower-case letters, digits and '-', '.' or '_' (not first), at most 214 characters, such as my-tasks or @my-org/my-tasks; pass it with --name.",
  },
  WOW7104: {
    severity: "error",
    message: "'{spec}' is not a dependency npm can install: {reason}.",
    hint: "Pass a version range such as ^1.2.0, a tag such as latest, or file:/path/to/wowc to link a checkout; pass it with --wowc.",
  },
  WOW7105: {
    severity: "error",
    message: "'{path}' is {what}, where `wowc init` writes {writes}; nothing was written.",
    hint: "Move or rename it (--force overwrites files, not this), or run `wowc init` in another directory.",
  },


  // ── WOW9999: internal ─────────────────────────────────────────────────────────────────────────
  WOW9999: {
    severity: "error",
    message: "Internal compiler error: {detail}",
    hint: "This is a bug in wowc, not in your sources. Please report it with the input that caused it.",
  },
} as const satisfies Record<string, MessageDefinition>;

export type DiagnosticCode = keyof typeof messages;

type Placeholders<S> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
type TemplatesOf<C extends DiagnosticCode> =
  | (typeof messages)[C]["message"]
  | ((typeof messages)[C] extends { hint: infer H } ? H : never);

/** The arguments a code's message and hint templates name. */
export type DiagnosticArgs<C extends DiagnosticCode> = { readonly [K in Placeholders<TemplatesOf<C>>]: string | number };
