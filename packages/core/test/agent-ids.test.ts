import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The promise of `docs/ARCHITECTURE.md`: adding an agent is its adapter folder and its line in
 * `core/src/agents/registry.ts`. So no source outside an agent's folder names it: no agent id as a string literal
 * (a switch, a default, a data entry), as a property name (a table keyed by agent) or as an import of its folder.
 * Anything that must know the agents reads the registry. Tests, test helpers and docs may name agents (they check
 * them); the few sources that still do, each with its reason, are listed below and reviewed.
 */

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const adaptersDir = join(repo, 'packages/core/src/adapters');
const registryFile = 'packages/core/src/agents/registry.ts';

/** Reviewed exceptions: file → the ids it may name, and why. Nothing here must change when an agent is added. */
const ALLOWED: Readonly<Record<string, { readonly ids: readonly string[]; readonly why: string }>> = {
  'packages/core/src/io/discover.ts': {
    ids: ['claude'],
    why: "Claude Code's discovery, shared with the pipeline's helpers, marks its files `agent: 'claude'`",
  },
  'packages/core/src/base.ts': {
    ids: ['aider', 'claude'],
    why: "features of one agent: Aider's histories in the repositories sessions ran in, Claude Code's cleanup setting",
  },
  'packages/core/src/index.ts': {
    ids: ['claude'],
    why: "Claude Code's cleanup setting, its record reader (the fuzz harness) and tool names (`schema`'s list)",
  },
  'packages/cli/src/commands/otel.ts': {
    ids: ['claude', 'codex', 'gemini'],
    why: '`otel setup` writes each telemetry client its own config (`TELEMETRY_AGENTS`); an agent without OpenTelemetry needs none',
  },
  'packages/cli/src/output/json-types.ts': {
    ids: ['codex', 'gemini'],
    why: "`otel setup --json`'s fields: the configs of the clients that export telemetry (above)",
  },
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    const source = /\.tsx?$/.test(name) && !/\.test\.tsx?$|\.d\.ts$|^test-helpers\.ts$/.test(name);
    return source ? [path] : [];
  });
}

/** Each agent id, by the folder whose `agent.ts` declares it. */
function agentFolders(): Map<string, string> {
  const out = new Map<string, string>();
  for (const folder of readdirSync(adaptersDir)) {
    const text = readFileSync(join(adaptersDir, folder, 'agent.ts'), 'utf8');
    const id = /\bid: '([^']+)'/.exec(text)?.[1];
    if (id !== undefined) out.set(id, folder);
  }
  return out;
}

/** A place a source file names an agent outside the agent's folder (the reviewed exceptions too). */
interface Naming {
  readonly path: string;
  readonly id: string;
  /** `file:line: id: what` */
  readonly line: string;
}

/**
 * Every place a source file names an agent outside its folder, found in one pass over the sources that both tests
 * read. A file that holds neither an id nor an agent folder's name anywhere in its text names no agent, and is not
 * parsed.
 */
function namings(ids: ReadonlyMap<string, string>): Naming[] {
  const found: Naming[] = [];
  const folders = new Set(ids.values());
  const names = [...new Set([...ids.keys(), ...folders])];
  // The private test helpers (`packages/testing`) are tests' code: they name the agents whose recordings they read.
  const packages = readdirSync(join(repo, 'packages')).filter((p) => p !== 'testing');
  for (const file of packages.flatMap((p) => sources(join(repo, 'packages', p, 'src')))) {
    const path = relative(repo, file).split(sep).join('/');
    const own = /^packages\/core\/src\/adapters\/([^/]+)\//.exec(path)?.[1];
    const text = readFileSync(file, 'utf8');
    if (!names.some((name) => text.includes(name))) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const report = (node: ts.Node, what: string, id: string) => {
      if (ids.get(id) === own) return;
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({ path, id, line: `${path}:${line}: ${id}: ${what}` });
    };
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
        const spec = node.moduleSpecifier;
        const folder = spec && ts.isStringLiteral(spec) ? /adapters\/([^/]+)\//.exec(spec.text)?.[1] : undefined;
        const registryLine =
          path === registryFile && spec && ts.isStringLiteral(spec) && spec.text.endsWith('/agent.js');
        if (folder !== undefined && folders.has(folder) && folder !== own && !registryLine) {
          const id = [...ids].find(([, f]) => f === folder)?.[0] as string;
          report(node, `imports ${(spec as ts.StringLiteral).text}`, id);
        }
        // The specifier's text is not an id literal.
        return;
      }
      const isKey =
        node.parent !== undefined &&
        (ts.isPropertyAssignment(node.parent) ||
          ts.isShorthandPropertyAssignment(node.parent) ||
          ts.isPropertySignature(node.parent)) &&
        node.parent.name === node;
      if ((ts.isIdentifier(node) || ts.isStringLiteral(node)) && isKey && ids.has(node.text)) {
        report(node, 'a key', node.text);
      } else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && ids.has(node.text)) {
        report(node, 'a literal', node.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The namings `exceptions` do not allow: `file:line: id: what`. */
function offenders(all: readonly Naming[], exceptions: typeof ALLOWED = ALLOWED): string[] {
  return all.filter((n) => !(exceptions[n.path]?.ids ?? []).includes(n.id)).map((n) => n.line);
}

describe('adding an agent is its folder and its registry line', () => {
  const ids = agentFolders();
  let found: Naming[] | undefined;
  const all = () => {
    found ??= namings(ids);
    return found;
  };

  it('finds every agent of the registry in its folder', () => {
    const registry = readFileSync(join(repo, registryFile), 'utf8');
    expect([...ids.values()].map((folder) => registry.includes(`../adapters/${folder}/agent.js`))).not.toContain(false);
    expect(ids.size).toBeGreaterThan(1);
  });

  it('no source outside an agent folder names an agent (id literal, table key or import of its folder)', () => {
    expect(offenders(all())).toEqual([]);
  });

  it('every reviewed exception is still needed', () => {
    const named = new Set(
      offenders(all(), {}).map((line) => line.split(': ').slice(0, 2).join(': ').replace(/:\d+:/, ':')),
    );
    const stale = Object.entries(ALLOWED).flatMap(([path, { ids: allowed }]) =>
      allowed.filter((id) => !named.has(`${path}: ${id}`)).map((id) => `${path}: ${id}`),
    );
    expect(stale).toEqual([]);
  });
});
