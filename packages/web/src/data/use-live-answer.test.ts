import { describe, expect, it } from 'vitest';
import { liveLoader } from './use-live-answer';

/** A question whose answers the test gives by hand, in the order asked. */
function question() {
  const asked: { signal: AbortSignal; answer(n: number): void; reject(e: Error): void }[] = [];
  const taken: number[] = [];
  const failed: string[] = [];
  const loader = liveLoader<number>(() => ({
    ask: (signal) =>
      new Promise<number>((answer, reject) => {
        asked.push({ signal, answer, reject });
      }),
    take: (n) => taken.push(n),
    fail: (e) => failed.push((e as Error).message),
  }));
  return { loader, asked, taken, failed };
}

const turn = () => new Promise((done) => setTimeout(done, 0));

describe('liveLoader', () => {
  it('never aborts the load on its way: the loads asked meanwhile are one more after it', async () => {
    const q = question();
    q.loader.load();
    for (let i = 0; i < 5; i++) q.loader.load(); // five live changes during a slow answer
    expect(q.asked).toHaveLength(1);
    expect(q.asked[0]?.signal.aborted).toBe(false);
    q.asked[0]?.answer(1);
    await turn();
    expect(q.taken).toEqual([1]);
    expect(q.asked).toHaveLength(2);
    q.asked[1]?.answer(2);
    await turn();
    expect(q.taken).toEqual([1, 2]);
    expect(q.asked).toHaveLength(2); // nothing more was asked
  });

  it('asks again after a failure too, and says the failure', async () => {
    const q = question();
    q.loader.load();
    q.loader.load();
    q.asked[0]?.reject(new Error('503'));
    await turn();
    expect(q.failed).toEqual(['503']);
    expect(q.asked).toHaveLength(2);
  });

  it('gives up the load on its way at stop, and takes nothing after', async () => {
    const q = question();
    q.loader.load();
    q.loader.load();
    q.loader.stop();
    expect(q.asked[0]?.signal.aborted).toBe(true);
    q.asked[0]?.answer(1);
    await turn();
    q.loader.load();
    expect(q.taken).toEqual([]);
    expect(q.asked).toHaveLength(1);
  });
});
