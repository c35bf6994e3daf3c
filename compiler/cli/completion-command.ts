// `wowc completion bash|zsh|fish`: a completion script for the shell, made from the command table:
// the commands after `wowc`, then the options of the command being typed (and the values of an
// option that takes a fixed set, such as --format).
import { COMMANDS, commandHelp, commandSpec, type CommandSpec } from "./commands.js";
import { EXIT_OK, EXIT_USAGE_OR_INTERNAL, type CliIO } from "./io.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

const optionWords = (spec: CommandSpec): string => spec.options.map((o) => `--${o.name}`).join(" ");
const names = COMMANDS.map((c) => c.name).join(" ");

function bash(): string {
  const cases = COMMANDS.map((c) => `    ${c.name}) opts="${optionWords(c)}" ;;`).join("\n");
  const values = COMMANDS.flatMap((c) => c.options.filter((o) => o.values !== undefined).map((o) => `    ${c.name}:--${o.name}) COMPREPLY=($(compgen -W "${o.values!.join(" ")}" -- "$cur")); return ;;`));
  const unique = [...new Set(values)].join("\n");
  return `# wowc completion for bash: eval "$(wowc completion bash)" (or save it under bash-completion's completions/wowc)
_wowc() {
  local cur prev cmd opts i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      -*) ;;
      *) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [[ -z "$cmd" ]]; then
    COMPREPLY=($(compgen -W "${names} --help --version" -- "$cur"))
    return
  fi
  case "$cmd:$prev" in
${unique}
  esac
  case "$cmd" in
${cases}
    *) opts="" ;;
  esac
  if [[ "$cmd" == completion ]]; then
    COMPREPLY=($(compgen -W "${SHELLS.join(" ")}" -- "$cur"))
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o default -F _wowc wowc
`;
}

function zsh(): string {
  const cases = COMMANDS.map((c) => `    ${c.name}) _arguments ${c.options.map((o) => `'--${o.name}[${o.description.replace(/[[\]']/g, "")}]${o.values !== undefined ? `:${o.value}:(${o.values.join(" ")})` : o.value !== undefined ? `:${o.value}:_files` : ""}'`).join(" ")} '*:file:_files' ;;`).join("\n");
  const commands = COMMANDS.map((c) => `'${c.name}:${c.summary.replace(/'/g, "")}'`).join(" ");
  return `#compdef wowc
# wowc completion for zsh: save as _wowc in a directory of $fpath, or eval "$(wowc completion zsh)"
_wowc() {
  local -a commands
  commands=(${commands})
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case "\${words[2]}" in
${cases}
  esac
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then _wowc "$@"; else compdef _wowc wowc; fi
`;
}

function fish(): string {
  const lines = [`# wowc completion for fish: wowc completion fish > ~/.config/fish/completions/wowc.fish`, "complete -c wowc -f"];
  for (const c of COMMANDS) lines.push(`complete -c wowc -n __fish_use_subcommand -a ${c.name} -d '${c.summary.replace(/'/g, "")}'`);
  for (const c of COMMANDS) {
    for (const o of c.options) {
      const values = o.values !== undefined ? ` -x -a '${o.values.join(" ")}'` : o.value !== undefined ? " -r" : "";
      lines.push(`complete -c wowc -n '__fish_seen_subcommand_from ${c.name}' -l ${o.name}${o.short === undefined ? "" : ` -s ${o.short}`}${values} -d '${o.description.replace(/'/g, "")}'`);
    }
  }
  lines.push(`complete -c wowc -n '__fish_seen_subcommand_from completion' -a '${SHELLS.join(" ")}'`);
  return `${lines.join("\n")}\n`;
}

export function completionScript(shell: Shell): string {
  return shell === "bash" ? bash() : shell === "zsh" ? zsh() : fish();
}

export function runCompletionCommand(argv: readonly string[], io: CliIO): number {
  const operands = argv.filter((a) => a !== "--");
  if (operands.includes("--help") || operands.includes("-h")) {
    io.stdout(commandHelp(commandSpec("completion")!));
    return EXIT_OK;
  }
  const [shell, ...more] = operands;
  if (shell === undefined || !(SHELLS as readonly string[]).includes(shell) || more.length > 0) {
    io.stderr(`wowc completion: give one shell: ${SHELLS.join(", ")}${shell === undefined ? "" : `, not '${[shell, ...more].join(" ")}'`}.\nRun 'wowc completion --help' for usage.\n`);
    return EXIT_USAGE_OR_INTERNAL;
  }
  io.stdout(completionScript(shell as Shell));
  return EXIT_OK;
}
