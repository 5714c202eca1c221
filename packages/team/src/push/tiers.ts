/** Which tier each session is pushed at: the default, or the first `--share-project P=TIER` whose P names its project. */
import { sep } from 'node:path';
import { projectFolderAgents } from '@agentdash/core/base';
import { baseName } from '@agentdash/core/present';
import { isShareTier, type ShareTier } from '../contract.js';

export interface ProjectTier {
  /** A project path, a folder above it, or a project folder's name. */
  readonly project: string;
  readonly tier: ShareTier;
}

export interface TierPolicy {
  readonly defaultTier: ShareTier;
  readonly projects: readonly ProjectTier[];
}

/** `P=TIER` as given to `--share-project`; an error message for anything else. */
export function parseProjectTier(arg: string): ProjectTier | string {
  const at = arg.lastIndexOf('=');
  const project = at > 0 ? arg.slice(0, at) : '';
  const tier = at > 0 ? arg.slice(at + 1) : '';
  if (project === '' || !isShareTier(tier)) {
    return `--share-project takes PROJECT=TIER with TIER one of summary, metadata, full, got "${arg}"`;
  }
  return { project: project.length > 1 && project.endsWith(sep) ? project.slice(0, -1) : project, tier };
}

const within = (path: string, folder: string): boolean => path === folder || path.startsWith(folder + sep);

/**
 * The tier of a session of this project (its path, else undefined) in this project folder. A rule names a folder
 * only where the agent's folder is its project's (`projectFolderAgents`, as the project filter reads it): Codex's
 * `sessions` folder holds every project.
 */
export function tierOf(
  policy: TierPolicy,
  session: { readonly projectPath: string | undefined; readonly projectDir: string; readonly agent: string },
): ShareTier {
  const folderName = (projectFolderAgents as readonly string[]).includes(session.agent)
    ? baseName(session.projectDir)
    : undefined;
  for (const rule of policy.projects) {
    const path = session.projectPath;
    if ((path !== undefined && within(path, rule.project)) || folderName === rule.project) return rule.tier;
  }
  return policy.defaultTier;
}
