/** A Windows path with its drive (`C:\…`, `C:/…`): a transcript written on Windows names its files and folders so. */
export const isDrivePath = (path: string): boolean => /^[A-Za-z]:[\\/]/.test(path);
