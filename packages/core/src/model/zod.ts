/**
 * zod for core's schemas, configured before any of them is made. In a browser (the dashboard, the HTML export) zod's
 * fast path for object schemas needs `new Function`, which those pages' Content-Security-Policy forbids: zod found
 * that out by trying, and every page reported the attempt as a `securitypolicyviolation`, noise that would hide a
 * real one. Node has no such policy: the fast path stays on there (the parse workers type every tool result).
 */
import { z } from 'zod';

if ('document' in globalThis) z.config({ jitless: true });

export { z };
