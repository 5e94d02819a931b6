"""The CLI's usage text (`ocellus --help`, `ocellus COMMAND --help`) read as data, for the shell
completions and the man pages: the commands, each one's usage and description, and the flags
and positional arguments the usage shows with the value each takes."""

import re
import subprocess

GLOBAL_USAGE = "[--app-id ID] [--pipewire-remote PATH] [--state-dir DIR] [--version] [--help]"


def help_text(binary, *command):
    return subprocess.run([binary, *command, "--help"], capture_output=True, text=True, check=True).stdout


def commands(binary):
    return sorted(set(re.findall(r"^  ([a-z][a-z-]*)(?: .*)?$", help_text(binary), re.M)))


def usage_and_description(binary, command):
    """`command`'s usage without the program and global options — its first line after the
    command's name (up to a description on the same line) and the lines that continue it
    (indented less than descriptions) — and its description's lines."""
    lines = help_text(binary, command).splitlines()
    first = lines[0].split(f" {command}", 1)[1] if f" {command}" in lines[0] else ""
    split = re.split(r" {2,}(?=\S)", first, maxsplit=1)
    parts, description = [split[0]], split[1:]
    index = 1
    while index < len(lines) and lines[index].strip() and len(lines[index]) - len(lines[index].lstrip()) < 20:
        parts.append(lines[index].strip())
        index += 1
    while index < len(lines) and lines[index].strip():
        description.append(lines[index].strip())
        index += 1
    return " ".join(part.strip() for part in parts if part.strip()), " ".join(description)


def usage(binary, command):
    return usage_and_description(binary, command)[0]


def parse(text):
    """Flags with the value each takes (None: none), and positional arguments, in order."""
    flags, positionals = {}, []
    tokens = re.findall(r"[^\s\[\]]+", text)
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token in ("|", "...", "[options]", "options") or token.startswith("|"):
            index += 1
            continue
        if token.startswith("-"):
            for flag in token.split("|"):
                flags.setdefault(flag.split("=")[0], None)
            following = tokens[index + 1] if index + 1 < len(tokens) else ""
            if "|" not in token and following and not following.startswith(("-", "|")) and following != "...":
                flags[token] = following
                index += 1
        elif token.endswith("..."):
            # A repeatable positional (CAMERA...): the same kind at every later position too.
            positionals.extend([token[:-3]] * 8)
        else:
            positionals.append(token)
        index += 1
    return flags, positionals
