import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { resumeCommand, shellQuote } from './resume-command';

describe('resumeCommand', () => {
  it('quotes folders a shell would split, and leaves plain ones bare', () => {
    expect(resumeCommand('claude', '/home/me/app', 'abc-123')).toBe('cd /home/me/app && claude --resume abc-123');
    expect(resumeCommand('claude', null, 'abc-123')).toBe('claude --resume abc-123');
    expect(resumeCommand('claude', "/tmp/it's a $dir", 'x')).toBe("cd '/tmp/it'\\''s a $dir' && claude --resume x");
  });

  it('resumes with the CLI of the agent that wrote the session, and not at all where it cannot by id', () => {
    const codexId = '01a205e7-fa42-7b50-b140-4a9421444194';
    expect(resumeCommand('codex', '/home/me/app', codexId)).toBe(`cd /home/me/app && codex resume ${codexId}`);
    expect(resumeCommand('codex', null, codexId)).toBe(`codex resume ${codexId}`);
    expect(resumeCommand('gemini', '/home/me/app', '5d245ce1-e81a-4624-bac6-b8828075b558')).toBeUndefined();
  });

  it('gives back the same word when a real shell reads it', () => {
    for (const word of ["it's", 'a b', '$(rm -rf x)', '`x`', 'plain/path', '"q"', 'tab\there', 'ünï']) {
      const echoed = execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' });
      expect(echoed).toBe(word);
    }
  });
});
