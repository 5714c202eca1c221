// The agents `npm run drift` checks: one entry each. An entry names the client's package and registry, its
// recorder (a driver under scripts/record on the shared driver and scripted model, taking `--client <install
// prefix> --out <dir>`), the folder of the recording its adapter reads, where a new version's fixture goes, and what
// the fixtures and corpus already hold (the baseline new record types and fields are measured against).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { trimClaudeRecording, trimCodexRecording, trimCopilotRecording } from './trim.mjs';

export const root = join(import.meta.dirname, '../..');
export const shared = process.env.AGENTDASH_SHARED ?? join(root, '../shared');
const fixtures = join(root, 'packages/core/test/fixtures');

/** The version folders under `dir` (each a recording or a corpus version), as homes `home` inside them. */
const versions = (dir, home) =>
  existsSync(dir)
    ? readdirSync(dir)
        .map((v) => join(dir, v, home))
        .filter((p) => existsSync(p))
    : [];

/**
 * @typedef {{
 *   agent: string, label: string, registry: 'npm' | 'pypi', pkg: string,
 *   recorder?: string, home?: string, fixtures?: string, baseline?: () => string[],
 *   trim?: (from: string, to: string) => void,
 * }} DriftAgent
 * (trim: how a recording becomes a fixture; copied whole when absent)
 * @type {DriftAgent[]}
 */
export const driftAgents = [
  {
    agent: 'claude',
    label: 'Claude Code',
    registry: 'npm',
    pkg: '@anthropic-ai/claude-code',
    recorder: 'scripts/record/claude-code/record.mjs',
    home: 'claude-home',
    fixtures: join(fixtures, 'claude-code'),
    baseline: () => [
      join(fixtures, 'claude'),
      ...versions(join(fixtures, 'claude-code'), 'claude-home'),
      ...versions(join(shared, 'corpus'), 'claude-home'),
    ],
    trim: trimClaudeRecording,
  },
  {
    agent: 'codex',
    label: 'Codex',
    registry: 'npm',
    pkg: '@openai/codex',
    recorder: 'scripts/record/codex/record.mjs',
    home: 'codex-home',
    fixtures: join(fixtures, 'codex'),
    baseline: () => [join(fixtures, 'codex'), ...versions(join(shared, 'corpus-agents/codex'), 'codex-home')],
    trim: trimCodexRecording,
  },
  {
    agent: 'gemini',
    label: 'Gemini CLI',
    registry: 'npm',
    pkg: '@google/gemini-cli',
    recorder: 'scripts/record/gemini/record.mjs',
    home: 'gemini-home',
    fixtures: join(fixtures, 'gemini'),
    baseline: () => [join(fixtures, 'gemini'), ...versions(join(shared, 'corpus-agents/gemini'), 'gemini-home')],
  },
  {
    agent: 'copilot',
    label: 'Copilot CLI',
    registry: 'npm',
    pkg: '@github/copilot',
    recorder: 'scripts/record/copilot/record.mjs',
    home: 'copilot-home',
    fixtures: join(fixtures, 'copilot'),
    baseline: () => [join(fixtures, 'copilot'), join(shared, 'wild-agents/other/copilot-cli')],
    trim: trimCopilotRecording,
  },
  {
    agent: 'opencode',
    label: 'OpenCode',
    registry: 'npm',
    pkg: 'opencode-ai',
    recorder: 'scripts/record/opencode/record.mjs',
    home: 'opencode-home',
    fixtures: join(fixtures, 'opencode'),
    baseline: () => [join(fixtures, 'opencode')],
  },
  {
    agent: 'qwen',
    label: 'Qwen Code',
    registry: 'npm',
    pkg: '@qwen-code/qwen-code',
    recorder: 'scripts/record/qwen/record.mjs',
    home: 'qwen-home',
    fixtures: join(fixtures, 'qwen'),
    baseline: () => [join(fixtures, 'qwen')],
  },
  // No recorder: Aider is Python (aider-chat on the Python registry); drift says whether that registry answers.
  { agent: 'aider', label: 'Aider', registry: 'pypi', pkg: 'aider-chat' },
];
