/**
 * Saves a file the console fetched with the signed-in session (an export, a report) under `name`: a plain link would
 * carry no bearer token, so the file is fetched first and saved from memory through a temporary link.
 */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked a moment later: the browser reads the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
