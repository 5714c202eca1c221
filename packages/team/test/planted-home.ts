/**
 * A Claude home with one session that carries every planted secret kind and marker texts in every field a
 * transcript has: prompt (so the title), reply, thinking, a tool's input and output, the custom title, cwd and git
 * branch. What a tier must not send is found by searching for the markers and secrets.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plantedSecrets } from '@agentdash/core/secrets/planted';
import { type AgentIndex, openIndex } from '@agentdash/index';

export const MARKERS = {
  prompt: 'MARKER-PROMPT-7f3a',
  reply: 'MARKER-REPLY-19c2',
  thinking: 'MARKER-THINKING-5e81',
  command: 'MARKER-COMMAND-a4d0',
  output: 'MARKER-OUTPUT-c6b7',
  title: 'MARKER-TITLE-2b9e',
  project: 'marker-project-84f1',
  branch: 'marker-branch-0d3c',
} as const;

export const SESSION_ID = '5ec7e75a-0000-4000-8000-00000000a11e';

export interface PlantedHome {
  readonly home: string;
  readonly file: string;
  /** Every secret's text as planted. */
  readonly secrets: readonly string[];
  /** The project path (cwd) of the session: holds a marker. */
  readonly cwd: string;
}

/** Writes the home under `root` and returns where. */
export function writePlantedHome(root: string): PlantedHome {
  const planted = plantedSecrets();
  const all = planted.map((p) => p.text).join('\n');
  const github = planted.find((p) => p.rule === 'github-token')?.secret ?? 'ghp_missing';
  const cwd = `/home/dev/${MARKERS.project}`;
  const folder = join(root, 'projects', cwd.replaceAll('/', '-'));
  mkdirSync(folder, { recursive: true });
  const base = {
    sessionId: SESSION_ID,
    cwd,
    version: '2.1.330',
    gitBranch: `${MARKERS.branch}-${github}`,
    userType: 'external',
  };
  const t = (s: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, s)).toISOString();
  const usage = {
    input_tokens: 120,
    output_tokens: 40,
    cache_creation_input_tokens: 300,
    cache_read_input_tokens: 900,
  };
  const records = [
    { type: 'custom-title', customTitle: `${MARKERS.title} ${github}`, sessionId: SESSION_ID },
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: t(0),
      message: { role: 'user', content: `${MARKERS.prompt} please deploy with these:\n${all}` },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: t(2),
      requestId: 'req_planted_1',
      message: {
        id: 'msg_planted_1',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [
          { type: 'thinking', thinking: `${MARKERS.thinking} ${all}`, signature: 'sig' },
          { type: 'text', text: `${MARKERS.reply} ${all}` },
          {
            type: 'tool_use',
            id: 'toolu_planted_1',
            name: 'Bash',
            input: {
              command: `curl -H "Authorization: Bearer ${github}" https://api.example/${MARKERS.command}`,
            },
          },
        ],
        usage,
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      timestamp: t(5),
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_planted_1', content: `${MARKERS.output}\n${all}`, is_error: true },
        ],
      },
      toolUseResult: `Error: ${MARKERS.output}\n${all}`,
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a2',
      parentUuid: 'u2',
      timestamp: t(8),
      requestId: 'req_planted_2',
      message: {
        id: 'msg_planted_2',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'text', text: `${MARKERS.reply} done` }],
        usage,
      },
    },
  ];
  const file = join(folder, `${SESSION_ID}.jsonl`);
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return { home: root, file, secrets: planted.map((p) => p.secret), cwd };
}

/** The planted home in a fresh temporary folder, indexed: what a laptop pushes. `close` removes it all. */
export interface PlantedIndex {
  readonly dir: string;
  readonly planted: PlantedHome;
  readonly index: AgentIndex;
  close(): void;
}

export async function plantedIndex(prefix: string): Promise<PlantedIndex> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const planted = writePlantedHome(join(dir, 'claude'));
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([planted.home]);
  return {
    dir,
    planted,
    index,
    close: () => {
      index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
