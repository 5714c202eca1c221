export type * from '@agentdash/api';
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
