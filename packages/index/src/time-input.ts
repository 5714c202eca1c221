/** A point in time: ISO-8601 text or milliseconds since the epoch. */
export type TimeInput = string | number | Date;
