import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { resumeCommand, shellQuote } from './resume-command';

describe('resumeCommand', () => {
  it('quotes folders a shell would split, and leaves plain ones bare', () => {
    expect(resumeCommand('/home/me/app', 'abc-123')).toBe('cd /home/me/app && claude --resume abc-123');
    expect(resumeCommand(null, 'abc-123')).toBe('claude --resume abc-123');
    expect(resumeCommand("/tmp/it's a $dir", 'x')).toBe("cd '/tmp/it'\\''s a $dir' && claude --resume x");
  });

  it('gives back the same word when a real shell reads it', () => {
    for (const word of ["it's", 'a b', '$(rm -rf x)', '`x`', 'plain/path', '"q"', 'tab\there', 'ünï']) {
      const echoed = execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' });
      expect(echoed).toBe(word);
    }
  });
});
