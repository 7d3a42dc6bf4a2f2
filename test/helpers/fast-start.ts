/**
 * Gemini CLI and Qwen Code start twice: the first process only relaunches the CLI with a larger heap and
 * waits for it. Where that does not matter to a test, skipping it halves their start-up (measured on 2
 * cores: Qwen 6.1 s of CPU to 3.3 s, Gemini 3.7 s to 2.6 s). Runs that check a whole process group is
 * ended keep the relaunch, so the group holds the launcher and the CLI under it, as it does for a user.
 */
export const NO_RELAUNCH_ENV: Readonly<Record<string, string>> = {
  GEMINI_CLI_NO_RELAUNCH: 'true',
  QWEN_CODE_NO_RELAUNCH: 'true',
};
