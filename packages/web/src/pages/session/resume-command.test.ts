import { execFileSync } from 'node:child_process';
import { agentAdapters } from '@agentdash/core';
import { describe, expect, it } from 'vitest';
import { resumableId, resumeCommand, shellQuote } from './resume-command';

/** The resume words an agent's adapter declares. */
const resumeOf = (id: string) => agentAdapters.find((a) => a.id === id)?.resume;

describe('resumeCommand', () => {
  it('quotes folders a shell would split, and leaves plain ones bare', () => {
    expect(resumeCommand(resumeOf('claude'), '/home/me/app', 'abc-123')).toBe(
      'cd /home/me/app && claude --resume abc-123',
    );
    expect(resumeCommand(resumeOf('claude'), null, 'abc-123')).toBe('claude --resume abc-123');
    expect(resumeCommand(resumeOf('claude'), "/tmp/it's a $dir", 'x')).toBe(
      "cd '/tmp/it'\\''s a $dir' && claude --resume x",
    );
  });

  it('resumes with the CLI of the agent that wrote the session, and not at all where it cannot by id', () => {
    const codexId = '01a205e7-fa42-7b50-b140-4a9421444194';
    expect(resumeCommand(resumeOf('codex'), '/home/me/app', codexId)).toBe(
      `cd /home/me/app && codex resume ${codexId}`,
    );
    expect(resumeCommand(resumeOf('codex'), null, codexId)).toBe(`codex resume ${codexId}`);
    expect(resumeCommand(resumeOf('gemini'), '/home/me/app', '5d245ce1-e81a-4624-bac6-b8828075b558')).toBeUndefined();
  });

  it('gives back the same word when a real shell reads it', () => {
    for (const word of ["it's", 'a b', '$(rm -rf x)', '`x`', 'plain/path', '"q"', 'tab\there', 'ünï']) {
      const echoed = execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' });
      expect(echoed).toBe(word);
    }
  });
});

describe('resumableId', () => {
  const id = '408b19ca-d0e4-4117-884e-3fced0b06fca';
  const path = `/home/me/.claude/projects/-home-user-proj-mcp/${id}`;
  it('is the id the transcript names, else a reference that is the id alone', () => {
    expect(resumableId(path, id, false, true)).toBe(id);
    expect(resumableId(`${id}@-home-user-proj-mcp`, id, false, true)).toBe(id);
    expect(resumableId(id, undefined, false, true)).toBe(id);
    // before the events came, a qualified reference or a path is not an id to give the agent
    expect(resumableId(path, undefined, false, true)).toBeUndefined();
    expect(resumableId(`${id}@-home-user-proj-mcp`, undefined, false, true)).toBeUndefined();
  });

  it('is none for a session that cannot be resumed', () => {
    // its files gone from disk, or its main file missing (subagents' files alone)
    expect(resumableId(id, id, true, true)).toBeUndefined();
    expect(resumableId(id, id, false, false)).toBeUndefined();
  });
});
