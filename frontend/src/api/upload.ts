/**
 * openapi-fetch options that send one file as the multipart part `file`.
 * The generated schema types that part as a string (OpenAPI's "binary"), so the typed body carries
 * only the file name; the serializer builds the real FormData with the Blob.
 */
export function fileBody(file: Blob, filename = "image.jpg") {
  return {
    body: { file: filename },
    bodySerializer: () => {
      const form = new FormData();
      form.append("file", file, filename);
      return form;
    },
  };
}
