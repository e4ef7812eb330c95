import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { Button } from "../../components/Button";
import styles from "./DropZone.module.css";

interface DropZoneProps {
  onFile: (file: File) => void;
  disabled?: boolean;
}

/** A file dropped just beside the zone must not make the browser open it and leave the app. */
function useSwallowStrayDrops() {
  useEffect(() => {
    const swallow = (e: globalThis.DragEvent) => e.preventDefault();
    window.addEventListener("dragover", swallow);
    window.addEventListener("drop", swallow);
    return () => {
      window.removeEventListener("dragover", swallow);
      window.removeEventListener("drop", swallow);
    };
  }, []);
}

/** Drag-and-drop target plus a real file chooser (data-testid "file-input"). */
export function DropZone({ onFile, disabled = false }: DropZoneProps) {
  const [over, setOver] = useState(false);
  useSwallowStrayDrops();
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (file !== undefined && !disabled) onFile(file);
  };
  const onDragOver = (e: DragEvent) => {
    e.preventDefault();
    e.dataTransfer.dropEffect = disabled ? "none" : "copy";
    setOver(!disabled);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    take(e.dataTransfer.files);
  };

  const cls = [styles.zone, over ? styles.over : "", disabled ? styles.disabled : ""].join(" ");
  return (
    <div
      className={cls}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="drop-zone"
    >
      <svg className={styles.icon} viewBox="0 0 44 44" fill="none" aria-hidden="true">
        <path d="M22 29V9M14 17l8-8 8 8" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M8 27v6a3 3 0 003 3h22a3 3 0 003-3v-6" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
      <p className={styles.title}>Drop an access log here</p>
      <p className={styles.hint} id={hintId}>
        Plain or compressed (.gz, .bz2, .zst, .zip), up to several GB. The access log format is detected from the
        first lines; name it under Advanced when it is a custom one.
      </p>
      <Button variant="secondary" onClick={() => inputRef.current?.click()} disabled={disabled} aria-describedby={hintId}>
        Choose a file…
      </Button>
      <input
        ref={inputRef}
        className={styles.input}
        type="file"
        aria-label="Access log file"
        data-testid="file-input"
        disabled={disabled}
        tabIndex={-1}
        onChange={(e) => {
          take(e.target.files);
          e.target.value = "";
        }}
      />
    </div>
  );
}
