# The options of each command in cli/manual.txt (the man pages' source) as a C table, so that
# `ocellus COMMAND --help` says what the man page says. The Makefile writes it to
# build/cli/command_options.h before compiling the CLI.
function c_string(text) {
    gsub(/\\/, "\\\\", text)
    gsub(/"/, "\\\"", text)
    return text
}
function flush() {
    if (section != "") printf "    { \"%s\", \"%s\" },\n", section, options
}
BEGIN {
    print "/* Generated from cli/manual.txt by scripts/command-options.awk: do not edit. */"
    print "static const struct { const char *command; const char *options; } command_options[] = {"
}
/^\[[a-z-]+\]$/ { flush(); section = substr($0, 2, length($0) - 2); options = ""; next }
/^option / {
    line = substr($0, 8)
    split_at = index(line, ": ")
    options = options c_string(substr(line, 1, split_at - 1)) "\\t" c_string(substr(line, split_at + 2)) "\\n"
}
END { flush(); print "};" }
