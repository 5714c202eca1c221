/** What a command given no PATH looks at: the agents' homes, else the sample sessions bundled with the package. */
import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentInfos, defaultClaudeHome, existingHomes, loadHomes, ownFolderAgents } from '@agentdash/core/base';

/** Sample sessions bundled with the package, used when there is no Claude home. */
export const SAMPLES_HOME = fileURLToPath(new URL('../samples/claude-home', import.meta.url));

/** A path in the bundled samples (of this install; another install's are found by their folder's name). */
export function isSamples(path: string): boolean {
  return (
    path === SAMPLES_HOME ||
    path.startsWith(`${SAMPLES_HOME}${sep}`) ||
    /[\\/]samples[\\/]claude-home(?:[\\/]|$)/.test(path)
  );
}

/** Where each agent's discovery looks under a folder (the registry's `layout` of each agent). */
export const LAYOUTS = agentInfos.map((a) => a.layout).join(', ');

/** Whether some agent takes this path for its home, a folder in one, or one of its transcripts. */
export async function recognisedByAnAgent(path: string): Promise<boolean> {
  for (const agent of await loadHomes()) if (await agent.recognizes(path)) return true;
  return false;
}

/**
 * Whether a projects folder holds at least one transcript (`projects/<project>/*.jsonl`), or may: a part of it that
 * cannot be listed (no permission, `projects` not a folder) counts, so that the home is read and the refresh reports
 * what it could not read, as it does for a home named as a PATH, instead of a crash or the samples in its place.
 */
export function hasTranscripts(projectsDir: string): boolean {
  if (!existsSync(projectsDir)) return false;
  const listed = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
  };
  const entries = listed(projectsDir);
  if (entries === undefined) return true;
  return entries.some((e) => {
    if (!e.isDirectory()) return false;
    const inside = listed(join(projectsDir, e.name));
    return inside === undefined || inside.some((f) => f.name.endsWith('.jsonl'));
  });
}

/**
 * The folders of their own the agents keep their transcripts in under `io`'s environment (`~/.claude`, `~/.codex`,
 * …), whether they exist or not.
 */
export async function agentsOwnHomes(io: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homedir: string;
}): Promise<string[]> {
  const own = new Set<string>(ownFolderAgents);
  return (await loadHomes())
    .filter((agent) => own.has(agent.id))
    .flatMap((agent) => agent.defaultHomes(io.env, io.homedir));
}

/**
 * The agents' homes under `io`'s environment that hold transcripts, or whose transcripts the archive keeps
 * (`archived`: a home whose transcripts the agent has all deleted is still the user's): Claude Code's first, then the
 * others the registry knows.
 */
export async function agentHomesOf(
  io: { readonly env: Readonly<Record<string, string | undefined>>; readonly homedir: string },
  archived: (home: string) => Promise<boolean>,
): Promise<string[]> {
  const claudeHome = defaultClaudeHome(io.env, io.homedir);
  const homes: string[] = [];
  if (hasTranscripts(join(claudeHome, 'projects')) || (await archived(claudeHome))) homes.push(claudeHome);
  for (const { agent, home } of existingHomes(io.env, io.homedir, await loadHomes())) {
    if (home === claudeHome) continue;
    if ((await agent.recognizes(home)) || (await archived(home))) homes.push(home);
  }
  return homes;
}
