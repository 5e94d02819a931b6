#!/usr/bin/env python3
"""Shell completions from the CLI's own help text (as the man pages are), values included:
the commands `ocellus --help` lists; for each, the flags and positional arguments its usage
(`ocellus COMMAND --help`) shows, and what each value is — one of the choices the usage spells
out (`normal|left-up|…`, also where another command's usage spells them and this one says `H`),
a pixel format (the header's names), a camera or microphone (unique IDs from `ocellus list
--json` when completing), a file or a directory, or something to type.

    scripts/completions.py OCELLUS_BINARY HEADER OUTPUT_DIR  → OUTPUT_DIR/bash/ocellus, OUTPUT_DIR/zsh/_ocellus
"""

import pathlib
import re
import sys

from cli_usage import GLOBAL_USAGE, commands, parse, usage

# A usage word that names a device, and which devices `ocellus list --json` offers for it.
DEVICE_WORDS = {"CAMERA": "cameras", "MICROPHONE": "microphones", "MIC_UNIQUE_ID": "microphones"}


def kind(value, flag, choices, formats):
    """How to complete `value` (a usage word): choices:WORDS, cameras, microphones, sizes,
    controls, files, dirs, or none."""
    if value is None:
        return None
    if flag == "--format":
        return "choices:" + " ".join(formats)
    if flag == "--metadata":
        return "choices:faces codes faces,codes"
    if value in DEVICE_WORDS:
        return DEVICE_WORDS[value]
    if value == "WxH":
        return "sizes"
    if flag == "--set":
        return "controls"
    if value.startswith("FILE") or value == "PATH":
        return "files"
    if value == "DIR":
        return "dirs"
    if "|" in value:
        return "choices:" + " ".join(value.split("|"))
    if flag in choices:
        return choices[flag]
    return "none"


def main():
    binary, header, out = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    formats = [name for name in re.findall(r"^#define OC_PIXEL_FORMAT_(\w+) ", header.read_text(), re.M)]
    names = commands(binary)
    parsed = {"": parse(GLOBAL_USAGE)}
    parsed.update({name: parse(usage(binary, name)) for name in names})
    # A flag's spelled-out choices hold wherever the flag appears (snap's `--host-orientation H`).
    choices = {flag: "choices:" + " ".join(value.split("|"))
               for flags, _ in parsed.values() for flag, value in flags.items() if value and "|" in value}

    flag_cases, value_cases, positional_cases = [], [], []
    for name, (flags, positionals) in parsed.items():
        flag_cases.append(f'        "{name}") echo "{" ".join(sorted(set(flags) | {"--help"}))}" ;;')
        for flag, value in sorted(flags.items()):
            what = kind(value, flag, choices, formats)
            if what:
                value_cases.append(f'        "{name} {flag}") echo "{what}" ;;')
        for position, word in enumerate(positionals):
            what = kind(word, None, choices, formats)
            if what != "none":
                positional_cases.append(f'        "{name} {position}") echo "{what}" ;;')

    bash = f"""# bash completion for ocellus (generated from its --help by scripts/completions.py)
_ocellus_flags() {{
    case "$1" in
{chr(10).join(flag_cases)}
    esac
}}
# What a flag's value is: choices:WORDS, cameras, microphones, sizes, controls, files, dirs or none
# (nothing for a flag without one).
_ocellus_value() {{
    case "$1 $2" in
{chr(10).join(value_cases)}
    esac
}}
_ocellus_positional() {{
    case "$1 $2" in
{chr(10).join(positional_cases)}
    esac
}}
_ocellus_devices() {{   # cameras|microphones [GLOBAL OPTIONS...]: their unique IDs, from list --json
    local want=$1
    shift
    "${{COMP_WORDS[0]}}" "$@" list --json 2>/dev/null | grep -o '"unique_id": *"[^"]*", *"name": *"\\([^"\\\\]\\|\\\\.\\)*", *"type": *"[^"]*"' |
        if [ "$want" = microphones ]; then grep '"type": *"microphone"'; else grep -v '"type": *"microphone"'; fi |
        sed 's/^"unique_id": *"\\([^"]*\\)".*/\\1/'
}}
_ocellus_offer() {{   # KIND CURRENT [GLOBAL OPTIONS...]
    local kind=$1 current=$2
    shift 2
    case "$kind" in
        choices:*) COMPREPLY=($(compgen -W "${{kind#choices:}}" -- "$current")) ;;
        files) COMPREPLY=($(compgen -f -- "$current")) ;;
        dirs) COMPREPLY=($(compgen -d -- "$current")) ;;
        cameras|microphones) COMPREPLY=($(compgen -W "$(_ocellus_devices "$kind" "$@")" -- "$current")) ;;
        # The sizes the cameras list (--size WxH).
        sizes) COMPREPLY=($(compgen -W "$("${{COMP_WORDS[0]}}" "$@" list --json 2>/dev/null |
                                          grep -o '"width": *[0-9]*, *"height": *[0-9]*' | tr -dc '0-9,\\n' | tr , x | sort -u)" -- "$current")) ;;
        # The camera's own controls (Ocellus's face_driven_* are not set with --set), as NAME=.
        controls) COMPREPLY=($(compgen -W "$("${{COMP_WORDS[0]}}" "$@" controls --json 2>/dev/null |
                                             grep -o '"name": *"[^"]*"' | sed 's/.*"\\([^"]*\\)"$/\\1=/' | grep -v '^face_driven_')" -- "$current"))
                  compopt -o nospace 2>/dev/null ;;
    esac
}}
_ocellus() {{
    local current=${{COMP_WORDS[COMP_CWORD]}} command="" word what="" index positional=0
    local -a globals=()
    COMPREPLY=()
    for ((index = 1; index < COMP_CWORD; index++)); do
        word=${{COMP_WORDS[index]}}
        if [[ -z $command ]] && [[ " {" ".join(names)} " == *" $word "* ]]; then command=$word; continue; fi
        if [[ $word == -* ]]; then
            what=$(_ocellus_value "$command" "$word")
            if [[ -n $what ]]; then
                if ((index + 1 == COMP_CWORD)); then _ocellus_offer "$what" "$current" "${{globals[@]}}"; return; fi
                # An optional value (`--audio [MICROPHONE]`) may be left out before the next flag.
                [[ ${{COMP_WORDS[index + 1]}} == -* ]] && continue
                [[ -z $command ]] && globals+=("$word" "${{COMP_WORDS[index + 1]}}")
                ((index++))
            fi
        elif [[ -n $command ]]; then
            ((positional++))
        fi
    done
    if [[ $current == -* ]]; then COMPREPLY=($(compgen -W "$(_ocellus_flags "$command")" -- "$current")); return; fi
    if [[ -z $command ]]; then COMPREPLY=($(compgen -W "{" ".join(names)}" -- "$current")); return; fi
    what=$(_ocellus_positional "$command" "$positional")
    [[ -n $what ]] && _ocellus_offer "$what" "$current" "${{globals[@]}}"
}}
complete -F _ocellus ocellus
"""
    (out / "bash").mkdir(parents=True, exist_ok=True)
    (out / "zsh").mkdir(parents=True, exist_ok=True)
    (out / "bash" / "ocellus").write_text(bash)
    (out / "zsh" / "_ocellus").write_text(
        "#compdef ocellus\n# zsh completion for ocellus: the bash one (generated from its --help), through bashcompinit.\n"
        "autoload -U +X bashcompinit && bashcompinit\n" + bash.split("\n", 1)[1])


if __name__ == "__main__":
    main()
