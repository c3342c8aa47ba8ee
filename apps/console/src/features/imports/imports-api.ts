import {
  consoleImportPaths as paths,
  type ConfirmImportRequest,
  type DiscardImportRequest,
  type ImportJob,
  type ImportJobList,
  type ImportKind,
} from '@rewards/contract/console-imports';
import type { ErrorParams } from '@rewards/contract/errors';
import { api, apiUrl, ConsoleApiError } from '../../api/client.ts';

// The console's imports (issue 20 §2, decision 064): every role reads, program managers and owners upload, confirm and discard.
export const listImports = (clientId: string) => api<ImportJobList>('GET', paths.imports(clientId));
export const getImport = (clientId: string, jobId: string) => api<ImportJob>('GET', paths.job(clientId, jobId));
export const confirmImport = (clientId: string, jobId: string, body: ConfirmImportRequest) =>
  api<ImportJob>('POST', paths.confirm(clientId, jobId), { body });
export const discardImport = (clientId: string, jobId: string, body: DiscardImportRequest) =>
  api<ImportJob>('POST', paths.discard(clientId, jobId), { body });
export const rejectsUrl = (clientId: string, jobId: string) => apiUrl(paths.rejects(clientId, jobId));

/**
 * Sends the file as it is on disk (the browser streams it; the server stages it as it arrives),
 * reporting the bytes sent: fetch has no upload progress, XMLHttpRequest does.
 */
export function uploadImport(
  clientId: string,
  kind: ImportKind,
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<ImportJob> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(paths.imports(clientId), { kind, fileName: file.name }));
    xhr.setRequestHeader('content-type', 'text/csv');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onerror = () => reject(new TypeError('network'));
    xhr.onload = () => {
      let body: { errorCode?: number; responseMessage?: string; message?: string; params?: ErrorParams } & Partial<ImportJob> = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // Not JSON: the status says enough.
      }
      if (xhr.status === 201) resolve(body as ImportJob);
      else
        reject(
          new ConsoleApiError(
            xhr.status,
            body.errorCode ?? 0,
            body.responseMessage ?? '',
            body.message ?? xhr.statusText,
            body.params ?? {},
          ),
        );
    };
    xhr.send(file);
  });
}
