export type { CallStatus, ImageValue, ResultBlock, ResultContent, Usage } from '@agentdash/core/model';
export type * from '@agentdash/server/api-types';
