/** A Windows path with its drive (`C:\…`, `C:/…`): a transcript written on Windows names its files and folders so. */
export const isDrivePath = (path: string): boolean => /^[A-Za-z]:[\\/]/.test(path);

/**
 * A drive path with its letter upper-case (`c:\proj` is `C:\proj`: Windows names a drive in either case, and a
 * terminal's folder and a tool's path of one file differ so); any other path as it is.
 */
export const withDriveUpper = (path: string): string =>
  /^[a-z]:[\\/]/.test(path) ? `${path[0]?.toUpperCase()}${path.slice(1)}` : path;
