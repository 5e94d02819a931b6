#!/bin/bash
# Shell completions from the CLI's own help text (as the man pages are): the commands
# `ocellus --help` lists, and for each the flags `ocellus COMMAND --help` shows.
#   scripts/completions.sh OCELLUS_BINARY OUTPUT_DIR   → OUTPUT_DIR/bash/ocellus, OUTPUT_DIR/zsh/_ocellus
set -eu
BIN="$1"; OUT="$2"
mkdir -p "$OUT/bash" "$OUT/zsh"
commands=$("$BIN" --help | sed -n 's/^  \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p' | sort -u | tr '\n' ' ')
global="--app-id --pipewire-remote --state-dir --help --version"
cases=""
for command in $commands; do
	flags=$("$BIN" "$command" --help | grep -o -- '--[a-z][a-z-]*' | sort -u | tr '\n' ' ')
	cases+="        $command) flags=\"$flags--help\" ;;"$'\n'
done
cat > "$OUT/bash/ocellus" <<BASH
# bash completion for ocellus (generated from its --help by scripts/completions.sh)
_ocellus() {
    local current=\${COMP_WORDS[COMP_CWORD]} command="" word flags
    for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
        case " $commands " in *" \$word "*) command=\$word; break ;; esac
    done
    case "\$command" in
$cases        "") flags="$global"
            if [[ \$current != -* ]]; then COMPREPLY=(\$(compgen -W "$commands" -- "\$current")); return; fi ;;
    esac
    COMPREPLY=(\$(compgen -W "\$flags" -- "\$current"))
}
complete -o default -F _ocellus ocellus
BASH
cat > "$OUT/zsh/_ocellus" <<ZSH
#compdef ocellus
# zsh completion for ocellus: the bash one (generated from its --help), through bashcompinit.
autoload -U +X bashcompinit && bashcompinit
$(sed '1d' "$OUT/bash/ocellus")
ZSH
