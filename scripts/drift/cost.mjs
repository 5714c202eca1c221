// The fidelity matrix's cost gate. A model without a price is one of four things, and the matrix says which:
// - a scripted model id: the scripted model served it (the recording's or corpus's truth.jsonl names it) and no price
//   list names it: it is not a real model, so it has no price to find ("not priced (scripted model id)");
// - a local model (a local server's provider prefix, e.g. LM Studio's `lm_studio/`): nothing is billed ("free");
// - a model its vendor billed by another unit than tokens (PaLM 2, per character): no per-token price is right;
// - an adapter's placeholder for a file that names no model (`aider-unknown-model`, `codex-unknown-model`): there is
//   no model to price;
// - any other real model: a price is missing, and the gate FAILs.
// Where the files hold the client's own cost next to exact token counts (Aider 0.1x's `945 prompt tokens, 194
// completion tokens, $0.039990 cost`), AgentDash's cost of those tokens must equal it, or the gate FAILs too.
import { existsSync, readFileSync } from 'node:fs';

/** Provider prefixes of servers that run a model on the person's own machine. */
const LOCAL_PROVIDERS = new Set(['lm_studio', 'lmstudio', 'ollama', 'ollama_chat', 'llamafile', 'local']);
/** Models billed by another unit than tokens, by normalized id: why no per-token price applies. */
const OTHER_UNIT = new Map([['palm-2-codechat-bison', 'PaLM 2 was billed per character, not per token']]);

/** The model ids a truth.jsonl says were served (the field its wire names: model, modelVersion, requestModel). */
export function servedModels(truthFile) {
  const models = new Set();
  if (truthFile === undefined || !existsSync(truthFile)) return models;
  for (const line of readFileSync(truthFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const served = JSON.parse(line);
      for (const key of ['model', 'modelVersion', 'requestModel']) {
        if (typeof served[key] === 'string') models.add(served[key]);
      }
    } catch {
      // A line that is not JSON names no model.
    }
  }
  return models;
}

/** Aider 0.1x's exact report with its cost, and the model the run names above it (`> Model: gpt-4`). */
const LEGACY_COST = /^> (\d+) prompt tokens, (\d+) completion tokens, \$([\d.]+) cost\s*$/;
const MODEL_LINE = /^> Model: (\S+)/;
export function reportedCosts(paths) {
  const reports = [];
  for (const path of paths) {
    let model;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        model = MODEL_LINE.exec(line)?.[1] ?? model;
        const m = LEGACY_COST.exec(line);
        if (m !== null && model !== undefined) {
          reports.push({ where: `${path}:${i + 1}`, model, input: Number(m[1]), output: Number(m[2]), cost: m[3] });
        }
      });
  }
  return reports;
}

/**
 * The gate's cell: `state` (pass, FAIL, or what kind of unpriced) and its evidence. `price(model)` is the built-in
 * table's price or undefined, `normalize` its id rule, `served` the scripted model's ids, `reports` Aider's costs.
 */
export function costGate({ models, price, normalize, served = new Set(), reports = [] }) {
  const scripted = [];
  const local = [];
  const otherUnit = [];
  const unnamed = [];
  const missing = [];
  for (const model of models) {
    if (price(model) !== undefined) continue;
    const provider = model.includes('/') ? model.slice(0, model.indexOf('/')).toLowerCase() : '';
    if (/^[a-z]+-unknown-model$/.test(model)) unnamed.push(model);
    else if (LOCAL_PROVIDERS.has(provider)) local.push(model);
    else if (OTHER_UNIT.has(normalize(model))) otherUnit.push(`${model} (${OTHER_UNIT.get(normalize(model))})`);
    else if (served.has(model)) scripted.push(model);
    else missing.push(model);
  }
  const priced = models.length - scripted.length - local.length - otherUnit.length - unnamed.length - missing.length;
  // A reported cost has six decimals: AgentDash's cost of the same tokens must be within its rounding.
  const disagree = [];
  for (const r of reports) {
    const rates = price(r.model);
    if (rates === undefined) continue;
    const ours = r.input * rates.input + r.output * rates.output;
    if (Math.abs(ours - Number(r.cost)) > 5e-7 + 1e-12) {
      disagree.push(`${r.where}: ${r.model} $${r.cost} reported, $${ours.toFixed(6)} here`);
    }
  }
  const compared = reports.filter((r) => price(r.model) !== undefined).length;
  const evidence = [
    `${priced}/${models.length} models priced`,
    ...(compared === 0 ? [] : [`${compared - disagree.length}/${compared} costs the client reported equal`]),
    ...(missing.length === 0 ? [] : [`no price: ${missing.join(', ')}`]),
    ...(scripted.length === 0 ? [] : [`scripted model ids (served by the scripted model): ${scripted.join(', ')}`]),
    ...(local.length === 0 ? [] : [`local models, free: ${local.join(', ')}`]),
    ...(otherUnit.length === 0 ? [] : [`not priced per token: ${otherUnit.join(', ')}`]),
    ...(unnamed.length === 0 ? [] : [`no model named in the file (a run before its banner): ${unnamed.join(', ')}`]),
    ...disagree.slice(0, 3),
  ].join('; ');
  const state =
    missing.length > 0 || disagree.length > 0
      ? 'FAIL'
      : scripted.length > 0
        ? 'not priced (scripted model id)'
        : local.length + otherUnit.length > 0
          ? `pass (${[local.length > 0 ? 'local model free' : '', otherUnit.length > 0 ? 'per-character model unpriced' : ''].filter((s) => s !== '').join(', ')})`
          : 'pass';
  return { ok: state !== 'FAIL', state, evidence };
}
