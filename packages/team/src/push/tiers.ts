/** Which tier each session is pushed at: the default, or the first `--share-project P=TIER` whose P names its project. */
import { sep } from 'node:path';
import { projectFolderAgents } from '@agentdash/core/base';
import { baseName } from '@agentdash/core/present';
import { isShareTier, lowerTier, type ShareTier } from '../contract.js';

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
 * The tier of a session of this project (its path, else undefined) in this project folder: the first rule's that
 * names it, else the default (for a session of no known project, the lowest tier a rule gives when lower). A rule names a folder
 * only where the agent's folder is its project's (`projectFolderAgents`, as the project filter reads it): Codex's
 * `sessions` folder holds every project.
 */
export function tierOf(policy: TierPolicy, session: TieredSession): ShareTier {
  const rule = ruleOf(policy, session);
  if (rule !== undefined) return rule.tier;
  if (session.projectPath !== undefined) return policy.defaultTier;
  // a session of no known project (a headless run's output): a rule meant to keep its project lower cannot tell it
  // is not that project's, so it goes at the lowest tier any rule gives, when that is lower than the default
  return policy.projects.reduce<ShareTier>((low, r) => lowerTier(low, r.tier), policy.defaultTier);
}

type TieredSession = { readonly projectPath: string | undefined; readonly projectDir: string; readonly agent: string };

/** The first `--share-project` rule that names the session's project; undefined when none does (the default tier). */
export function ruleOf(policy: TierPolicy, session: TieredSession): ProjectTier | undefined {
  const folderName = (projectFolderAgents as readonly string[]).includes(session.agent)
    ? baseName(session.projectDir)
    : undefined;
  const path = session.projectPath;
  return policy.projects.find(
    (rule) => (path !== undefined && within(path, rule.project)) || folderName === rule.project,
  );
}

/** `P=TIER`, as the rule was given. */
export const ruleText = (rule: ProjectTier): string => `${rule.project}=${rule.tier}`;
