import { unwrap } from '../shared/api';
import { api } from './session';

/**
 * Uploads one picture as proof (POST /v1/upload/task-proof) and answers its URL, for a submission's photo fields, a
 * "could not do it" report and a dispute alike. `fallbackName` names a picture the camera gave no file name.
 */
export async function uploadProof(picture: Blob, fallbackName: string): Promise<string> {
  const upload = await unwrap(
    api.POST('/v1/upload/task-proof', {
      body: { file: '' },
      // multipart/form-data: the picture itself in place of the typed placeholder.
      bodySerializer: () => {
        const form = new FormData();
        form.append('file', picture, picture instanceof File && picture.name ? picture.name : fallbackName);
        return form;
      },
    }),
  );
  return upload.url;
}
