# bash completion for tern, the curl-like client of the tern HTTP library.
# The option list comes from `tern --help` itself, so it is never out of date.
_tern() {
  local cur prev
  COMPREPLY=()
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
    -o | --output | -D | --dump-header | -K | --config | --cacert | --cert | --key | \
      -T | --upload-file | -b | --cookie | -c | --cookie-jar | --netrc-file | --trace | \
      --trace-ascii | --output-dir | --cache | --proxy-cacert)
      COMPREPLY=($(compgen -f -- "$cur"))
      return 0
      ;;
  esac
  if [[ $cur == -* ]]; then
    local opts
    opts=$("${COMP_WORDS[0]}" --help 2>/dev/null |
      grep -oE '(^|[ ,])--?[A-Za-z0-9#][-A-Za-z0-9.]*' | tr -d ' ,' | sort -u)
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return 0
  fi
  COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _tern tern
