/** Hands a text file to the browser's downloads, as a link with `download` would. */
export function saveTextFile(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Chromium reads the blob after the click returns; revoke once it has.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
