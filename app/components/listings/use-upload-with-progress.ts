import { useState, type FormEvent } from "react";

const FAILED = "Error: Failed to post vehicle. Please try again.";

/**
 * With JS, Post Vehicle sends a form that carries photos to POST /api/vehicles itself, to show an
 * upload progress bar; the answer's flash toast is read by the full page load that follows. A form
 * without photos (or with `enabled` off) is left to the normal form post.
 */
export function useUploadWithProgress(enabled: boolean) {
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadErrors, setUploadErrors] = useState<string[]>([]);

  function send(event: FormEvent<HTMLFormElement>, formData: FormData) {
    const photos = formData.getAll("photos").filter((f) => f instanceof File && f.size > 0);
    if (!enabled || photos.length === 0) return;
    event.preventDefault();
    formData.set("source", "page");
    setUploadErrors([]);
    setProgress(0);
    const request = new XMLHttpRequest();
    request.open("POST", "/api/vehicles");
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    };
    request.onload = () => {
      let body: { id?: string; message?: string; fields?: Record<string, string> } = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = {};
      }
      // A full load, so the root loader reads the flash toast the answer set.
      if (request.status === 201 && body.id) return window.location.assign(`/vehicle/${body.id}`);
      setProgress(null);
      if (request.status === 403) return window.location.assign("/membership");
      if (request.status === 401)
        return window.location.assign("/api/login?returnTo=/post-vehicle");
      const messages = [body.message, ...Object.values(body.fields ?? {})].filter(
        (m): m is string => Boolean(m),
      );
      setUploadErrors(messages.length ? [...new Set(messages)] : [FAILED]);
    };
    request.onerror = () => {
      setProgress(null);
      setUploadErrors([FAILED]);
    };
    request.send(formData);
  }

  return { send, progress, errors: uploadErrors };
}
