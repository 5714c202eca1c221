import { join } from 'node:path';

/** Where the index lives by default: `$AGENTDASH_DB`, else the XDG data dir. */
export function defaultDbPath(
  env: Readonly<Record<string, string | undefined>>,
  homedir: string,
  platform: string = process.platform,
): string {
  const override = env.AGENTDASH_DB;
  if (override !== undefined && override !== '') return override;
  const xdg = env.XDG_DATA_HOME;
  if (xdg !== undefined && xdg !== '') return join(xdg, 'agentdash', 'index.sqlite');
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'agentdash', 'index.sqlite');
  return join(homedir, '.local', 'share', 'agentdash', 'index.sqlite');
}
