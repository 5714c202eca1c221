/** What a command given no PATH looks at: the agents' homes, else the sample sessions bundled with the package. */
import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentInfos, loadHomes } from '@agentdash/core/base';

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

/** Whether a projects folder holds at least one transcript (`projects/<project>/*.jsonl`). */
export function hasTranscripts(projectsDir: string): boolean {
  if (!existsSync(projectsDir)) return false;
  const entries = readdirSync(projectsDir, { withFileTypes: true });
  return entries.some(
    (e) => e.isDirectory() && readdirSync(join(projectsDir, e.name)).some((name) => name.endsWith('.jsonl')),
  );
}
