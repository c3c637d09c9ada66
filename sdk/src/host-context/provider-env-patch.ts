// What of a provider's environment patch reaches a process it names (a Host Context spawn, a
// session's CLI): svc applies this rule, and the SDK's test host applies it too.

/**
 * Variables that make a program load or run code other than itself, or run another program in its
 * place: the dynamic loader's (LD_PRELOAD, DYLD_INSERT_LIBRARIES, …), the interpreters' start-up
 * hooks (NODE_OPTIONS, PYTHONSTARTUP, PERL5OPT, BASH_ENV, …), the programs a tool hands work to
 * (GIT_SSH_COMMAND, EDITOR, PAGER, …) and PATH, which decides what every bare command name runs. A
 * provider names none of them: the person's own environment and connection keep theirs.
 */
const CODE_INJECTION_ENV =
  /^(LD_.+|DYLD_.+|_RLD.*|GCONV_PATH|GETCONF_DIR|HOSTALIASES|LOCALDOMAIN|RES_OPTIONS|NLSPATH|MALLOC_.+|GLIBC_TUNABLES|PATH|IFS|ENV|BASH_ENV|BASH_FUNC_.+|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|ZDOTDIR|NODE_OPTIONS|NODE_PATH|NODE_REPL_EXTERNAL_MODULE|NODE_EXTRA_CA_CERTS|NODE_TLS_REJECT_UNAUTHORIZED|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PYTHONINSPECT|PYTHONUSERBASE|PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|GIT_.+|SSH_ASKPASS|SUDO_ASKPASS|EDITOR|VISUAL|PAGER|BROWSER|SHELL|TMPDIR|HOME|XDG_CONFIG_HOME|XDG_DATA_HOME|XDG_CONFIG_DIRS|XDG_DATA_DIRS)$/i;

// Environment keys the host owns in a child: a provider does not set them.
const HOST_OWNED_ENV = /^SVC_/i;

export interface FilteredEnvPatch {
  env: Record<string, string>;
  /** The names left out (never their values: a provider's patch may carry a key). */
  dropped: string[];
}

/**
 * A provider's environment patch as any process it names receives it (`process:spawn` calls and
 * session processes alike; svc logs the names it leaves out): without the host's own SVC_* keys and without any variable that would
 * make the program run other code than the one the person confirmed.
 */
export function filterProviderEnvPatch(patch: Record<string, string> | undefined): FilteredEnvPatch {
  const env: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (HOST_OWNED_ENV.test(key) || CODE_INJECTION_ENV.test(key) || key === '' || key.includes('=') || key.includes('\0')) dropped.push(key);
    else env[key] = value;
  }
  return { env, dropped };
}
