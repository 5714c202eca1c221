import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentIds } from '@agentdash/core/base';
import { describe, expect, it } from 'vitest';

/*
 * The web reads only the typed contract (issue 10): a result through `typed` (core's `TypedResult`), a call's input
 * through `typedInput` (core's `CallInput`), or, generically, as JSON without naming a field. Any agent's own field
 * names, or the raw structured output read by field, fail here.
 */
const src = dirname(fileURLToPath(import.meta.url));
/** Every agent of the registry (this test runs in Node; the dashboard's own files import no value of the list). */
const IDS = agentIds.join('|');

/** Claude Code's own names: raw-output readers and tool argument names. */
const FORBIDDEN = [
  /\btur\(/,
  /\.toolUseResult\b/,
  /\bfile_path\b/,
  /\bnotebook_path\b/,
  /\bold_string\b/,
  /\bnew_string\b/,
  /\breplace_all\b/,
  /\brun_in_background\b/,
  /\bsubagent_type\b/,
  /\boutput_mode\b/,
  /\ballowed_domains\b/,
  /\b(bash|shell|task)_id\b/,
  /\bcell_(id|type)\b/,
  /\bedit_mode\b/,
  /\bnew_source\b/,
  /\bold_source\b/,
  /\bretrieval_status\b/,
  /\btask_type\b/,
  /\btotal_deferred_tools\b/,
  /\boutput_tokens\b/,
  /\bexecution_count\b/,
  // A table keyed by agent id, or a switch on it: what differs per agent comes from its adapter (`GET /api/agents`).
  new RegExp(`^\\s*'?(${IDS})'?\\s*:`),
  new RegExp(`[=!]== '(${IDS})'`),
];
/** The one read allowed: the `unknown` kind keeps the agent's structured output as written, shown as JSON. */
const ALLOWED = [/typed\?\.kind === 'unknown' \? typed\.toolUseResult/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function offences(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, n) =>
        FORBIDDEN.some((re) => re.test(line)) && !ALLOWED.some((re) => re.test(line))
          ? [`${relative(src, file)}:${n + 1}: ${line.trim()}`]
          : [],
      ),
  );
}

describe('the web reads only the typed contract', () => {
  it('no source reads the raw structured output or an agent field name', () => {
    const files = sources(src);
    expect(files.length).toBeGreaterThan(20);
    expect(offences(files)).toEqual([]);
  });

  it('the check finds such reads', () => {
    const probe = join(src, 'renderers', 'files.tsx');
    const lines = [
      'const t = tur(call);',
      'str(i.file_path)',
      'call.result?.toolUseResult',
      'i.run_in_background',
      "  codex: 'Codex',",
      "agent === 'gemini' ? null : id",
    ];
    const found = lines.filter((line) => FORBIDDEN.some((re) => re.test(line)));
    expect(found).toEqual(lines);
    expect(offences([probe])).toEqual([]);
  });
});

/** The registry's values: the dashboard has them from `GET /api/agents`, so the list may reach node-only modules. */
const REGISTRY_VALUES = new Set(['agentInfos', 'agentIds', 'agentInfo', 'isAgentId', 'agentLabels']);

/** The registry's values a source imports from core (type-only imports are erased from the build). */
function registryImports(text: string): string[] {
  return [...text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'@agentdash\/core[^']*'/g)].flatMap((m) =>
    m[1] !== undefined
      ? []
      : (m[2] ?? '')
          .split(',')
          .map((name) => name.trim())
          .filter((name) => !name.startsWith('type ') && REGISTRY_VALUES.has(name.split(/\s+as\s+/)[0] ?? '')),
  );
}

describe('the web has the agents from the server', () => {
  it('no source imports the agent registry from core', () => {
    const found = sources(src).flatMap((file) =>
      registryImports(readFileSync(file, 'utf8')).map((name) => `${relative(src, file)}: ${name}`),
    );
    expect(found).toEqual([]);
  });

  it('the check finds such imports', () => {
    expect(
      registryImports(
        "import { type AgentId, agentIds } from '@agentdash/core/model';\nimport { isAgentId as known } from '@agentdash/core';",
      ),
    ).toEqual(['agentIds', 'isAgentId as known']);
    expect(registryImports("import type { AgentId } from '@agentdash/core/model';")).toEqual([]);
  });
});
