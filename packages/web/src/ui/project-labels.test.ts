import { describe, expect, it } from 'vitest';
import { projectLabels } from './project-labels';

describe('projectLabels', () => {
  const hash = '7e8989f71805c3147f6be9b7a71de2a156f8face69f9380beeeb8a777414f21c';
  const homes = [1, 2, 3].map((n) => `/data/gemini/entire-cli-${n}/tmp/${hash}`);

  it('tells apart paths whose last two folders are the same', () => {
    const labels = projectLabels([...homes, '/home/u/code/app', '/tmp']);
    expect(new Set(homes.map((p) => labels.get(p))).size).toBe(3);
    expect(labels.get(homes[0] as string)).toBe('…/entire-cli-1/tmp/7e8989f71805…');
    // the others keep their short label
    expect(labels.get('/home/u/code/app')).toBe('…/code/app');
    expect(labels.get('/tmp')).toBe('/tmp');
  });

  it('gives every distinct path a distinct label, the whole path when need be', () => {
    const paths = ['/a/x/p/q', '/b/x/p/q', '/x/p/q', 'x/p/q', '/a/x/p/q/'];
    const labels = projectLabels(paths);
    expect(new Set(paths.map((p) => labels.get(p))).size).toBe(paths.length);
  });

  it('cuts a long folder name by whole characters: never half an emoji', () => {
    const label = projectLabels(['/home/u/work/abcdefghijk🚀-very-long-folder-name']).get(
      '/home/u/work/abcdefghijk🚀-very-long-folder-name',
    );
    expect(label).toBe('…/work/abcdefghijk🚀…');
    // a family emoji is one character of four people joined: cut whole, not as a family of three
    const family = '/home/u/work/abcdefghijk👨\u200d👩\u200d👧\u200d👦-very-long-folder-name';
    expect(projectLabels([family]).get(family)).toBe('…/work/abcdefghijk👨\u200d👩\u200d👧\u200d👦…');
  });
});
