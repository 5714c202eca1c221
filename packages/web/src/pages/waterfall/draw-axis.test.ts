import { describe, expect, it } from 'vitest';
import { LABEL_W, labelWidth } from '../../ui/waterfall-geometry';
import { drawAxis } from './draw';

/** A canvas context that records the labels written, each character 6 px wide. */
function recorder() {
  const labels: { text: string; x: number }[] = [];
  const ctx = {
    font: '',
    textBaseline: '',
    strokeStyle: '',
    fillStyle: '',
    beginPath() {},
    moveTo() {},
    lineTo() {},
    stroke() {},
    measureText: (text: string) => ({ width: text.length * 6 }),
    fillText: (text: string, x: number) => labels.push({ text, x }),
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, labels };
}

/** Each label starts at least 6 px after the one before it ends (6 px a character, as the recorder measures). */
function expectApart(labels: readonly { text: string; x: number }[]): void {
  for (const [i, label] of labels.entries()) {
    const before = labels[i - 1];
    if (before !== undefined) expect(label.x - before.x, label.text).toBeGreaterThanOrEqual(before.text.length * 6 + 6);
  }
}

describe("the waterfall's time axis", () => {
  it('writes no label that would run past the right edge', () => {
    const width = LABEL_W + 600;
    // a tick 10 px from the right edge: its label (8 characters, 48 px) cannot fit
    const t0 = Date.UTC(2026, 10, 21, 20, 27, 0);
    const { ctx, labels } = recorder();
    drawAxis(ctx, { t0, t1: t0 + 61_000 }, width, 300);
    expect(labels.length).toBeGreaterThan(2);
    for (const { text, x } of labels) expect(x + text.length * 6, text).toBeLessThanOrEqual(width);
    // the tick at 60 s stands at 600 × 60 / 61 ≈ 590 px: cut at the edge, or ending at its line over the label
    // before it, so left out
    expect(labels.map((l) => l.text)).not.toContain(
      new Date(t0 + 60_000).toLocaleTimeString('en-GB', { hour12: false }),
    );
  });
});

describe("the waterfall's time axis on a phone", () => {
  it('gives a narrow plot several labels that do not overlap', () => {
    // The samples' 3d438771 at 390 px: an 11 s session over a plot of about 190 px had one label, 20:19:00.
    const t0 = Date.UTC(2026, 10, 21, 20, 18, 58);
    const { ctx, labels } = recorder();
    drawAxis(ctx, { t0, t1: t0 + 11_000 }, LABEL_W + 190, 300);
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(labels.every((l) => l.x >= labelWidth(LABEL_W + 190))).toBe(true);
    expectApart(labels);
  });

  it('keeps labels of milliseconds apart too', () => {
    const t0 = Date.UTC(2026, 10, 21, 20, 18, 58);
    const { ctx, labels } = recorder();
    drawAxis(ctx, { t0, t1: t0 + 900 }, LABEL_W + 190, 300);
    expect(labels.length).toBeGreaterThanOrEqual(1);
    expectApart(labels);
  });
});

describe("the waterfall's time axis over months", () => {
  it('never writes a label over the one before it, past the largest step', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const { ctx, labels } = recorder();
    drawAxis(ctx, { t0, t1: t0 + 400 * 86_400_000 }, LABEL_W + 190, 300);
    expect(labels.length).toBeGreaterThanOrEqual(1);
    expectApart(labels);
  });
});

describe("the waterfall's time axis on a phone, an hour long", () => {
  it('writes the last tick ending at its line when it would run past the edge: two labels, not one', () => {
    // 8e170928 of ../shared/wild at 390 px: 58 min over about 190 px had 18:30:00 alone.
    const t0 = Date.UTC(2025, 11, 12, 18, 6, 4);
    const { ctx, labels } = recorder();
    drawAxis(ctx, { t0, t1: t0 + 58 * 60_000 }, LABEL_W + 190, 300);
    // hours and minutes at a 30-minute step: 18:30, then 19:00 ending at its line
    expect(labels.map((l) => l.text)).toEqual(['18:30', '19:00']);
    for (const l of labels) expect(l.x + l.text.length * 6).toBeLessThanOrEqual(LABEL_W + 190);
  });
});

describe("the waterfall's lane labels on a phone", () => {
  it('take 28 % of a narrow canvas, not 170 px of it (a 330 px canvas had 160 px of plot for 283 calls)', () => {
    expect(labelWidth(330)).toBe(96);
    expect(330 - labelWidth(330)).toBe(234);
    expect(labelWidth(500)).toBe(140);
    expect(labelWidth(1200)).toBe(LABEL_W);
  });
});
