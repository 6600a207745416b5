import { useEffect, useRef, useState } from 'react';
import { useWords } from '../messages';

/**
 * A camera button: a big button that opens the hidden file input, whose `capture=environment` opens the rear camera
 * on a phone, and the chosen photo shown under it before anything is sent. Used for the proof photo, the photo of a
 * dispute or of a "could not do it" report, and each photo field of an answer_schema. The retake and preview words
 * default to the proof photo's; a hint, when given, stands under the button and describes it.
 */
export function CameraButton(props: {
  id: string;
  photo: Blob | null;
  onChoose: (file: File | null) => void;
  takeLabel: string;
  retakeLabel?: string;
  previewLabel?: string;
  hint?: string;
}) {
  const { t } = useWords();
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    const url = props.photo ? URL.createObjectURL(props.photo) : null;
    setPreview(url);
    return () => void (url && URL.revokeObjectURL(url));
  }, [props.photo]);
  return (
    <>
      <input
        ref={input}
        id={props.id}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        onChange={(e) => props.onChoose(e.target.files?.[0] ?? null)}
      />
      <button
        type="button"
        className="camera"
        aria-describedby={hintId}
        onClick={() => input.current?.click()}
      >
        <CameraIcon />
        {props.photo ? (props.retakeLabel ?? t('work.retake_photo')) : props.takeLabel}
      </button>
      {preview && (
        <img className="photo-preview" src={preview} alt={props.previewLabel ?? t('work.photo_preview')} />
      )}
      {props.hint && (
        <small id={hintId} className="muted">
          {props.hint}
        </small>
      )}
    </>
  );
}

/**
 * The proof photo's camera button with its hint, the same on a free-form submission and on an answer_schema form that
 * still needs a proof photo (a photo task with no photo field).
 */
export function ProofCamera(props: { photo: Blob | null; onChoose: (file: File | null) => void }) {
  const { t } = useWords();
  return (
    <CameraButton
      id="photo"
      photo={props.photo}
      onChoose={props.onChoose}
      takeLabel={t('work.take_photo')}
      hint={t('work.photo_hint')}
    />
  );
}

/** A camera outline (drawn, not an emoji: a phone without an emoji font would show a box). */
function CameraIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M4 7h3l2-2.5h6L17 7h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="12.5" r="3.6" fill="none" stroke="currentColor" strokeWidth="1.8" />
    </svg>
  );
}
