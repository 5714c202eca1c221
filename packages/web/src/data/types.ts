export type {
  CallInput,
  CallStatus,
  DataKind,
  ImageValue,
  ResultBlock,
  ResultContent,
  ResultData,
  TypedResult,
  TypedResultKind,
  TypedResultOf,
  Usage,
} from '@agentdash/core/model';
export type * from '@agentdash/server/api-types';
export type * from '@agentdash/server/telemetry-types';
