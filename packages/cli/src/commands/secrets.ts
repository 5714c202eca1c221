import { redactIdentifiers, secretRules } from '@agentdash/core/secrets';
import { filterOptions } from '../args.js';
import { plural, shortId } from '../format.js';
import type { SecretsJson } from '../output/json-types.js';
import { type SecretFinding, scanFile } from '../secret-scan.js';
import { renderTable, styled } from '../table.js';
import { type CommandSpec, cutToLimit, filteredHelp, refreshedScope, writeJson } from './common.js';
import { noteUnmatchedModel, noteUnmatchedProject, noteUnmatchedVersion } from './usage-model-note.js';

export const secretsCommand: CommandSpec = {
  name: 'secrets',
  usage: 'agentdash secrets [PATH…] [filters] [--json]',
  summary: 'find secrets in transcripts (file, line and kind; never the secret itself)',
  help: filteredHelp(`Lists, per session, each secret found in its transcript files: file, line and the rule that found it (API keys
and tokens of common providers, cloud keys, private keys, passwords in URLs, .env-style assignments; the rule set is
in docs/secrets.md). The secret itself is never printed. Exports redact these by default.`),
  options: filterOptions,
  async run(ctx, positionals) {
    // `--limit N`: the N newest sessions scanned, one more asked for to say whether others were left unscanned
    const { filter } = await refreshedScope(ctx, positionals);
    const found = await ctx.listSessions(filter.limit === undefined ? filter : { ...filter, limit: filter.limit + 1 });
    await noteUnmatchedModel(ctx, filter, found.length);
    await noteUnmatchedVersion(ctx, filter, found.length);
    await noteUnmatchedProject(ctx, filter, found.length);
    const {
      items: sessions,
      truncated,
      more,
    } = filter.limit === undefined ? { items: found, truncated: false, more: '' } : cutToLimit(found, filter.limit);
    // Files gone from disk are read from the archive.
    const { openBytes } = await ctx.openIndex();
    const out: SecretsJson['sessions'][number][] = [];
    for (const s of sessions) {
      const findings: SecretFinding[] = [];
      for (const f of s.files) findings.push(...(await scanFile(f.path, openBytes)));
      // Never the secret itself: a title or a file path holding one shows it redacted.
      // (with the project path beside it, whose secrets the project folder in each path repeats)
      if (findings.length > 0) {
        const entry = { sessionId: s.id, sessionRef: s.ref, title: s.title ?? null, findings };
        out.push(redactIdentifiers({ projectPath: s.projectPath, entry }).entry);
      }
    }
    const total = out.reduce((n, s) => n + s.findings.length, 0);
    if (ctx.json) {
      const json: SecretsJson = {
        rules: secretRules.map((r) => ({ id: r.id, title: r.title })),
        total,
        sessions: out,
        scanned: sessions.length,
        truncated,
      };
      writeJson(ctx, json);
      return;
    }
    if (total === 0) {
      ctx.io.stdout.write(
        `No secrets found in ${plural(sessions.length, 'session')}${truncated ? ', the newest' : ''}${more}.\n`,
      );
      return;
    }
    const c = ctx.color;
    const rows = out.flatMap((s) =>
      s.findings.map((f) => [
        s.sessionRef === s.sessionId ? shortId(s.sessionId) : s.sessionRef,
        `${f.file}:${f.line}`,
        styled(f.rule, c.red),
      ]),
    );
    ctx.io.stdout.write(
      // A file's path is cut by its start (its name and line stay) to fit the terminal.
      renderTable([{ header: 'SESSION' }, { header: 'WHERE', min: 24, cut: 'start' }, { header: 'RULE' }], rows, {
        width: ctx.width,
        headerStyle: c.bold,
      }),
    );
    ctx.io.stdout.write(
      `${plural(total, 'secret')} in ${plural(out.length, 'session')} (of ${sessions.length}${truncated ? ', the newest' : ''}); exports redact them${more}\n`,
    );
  },
};
