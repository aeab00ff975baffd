import { Mic, Square } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/Button";

export const MAX_RECORDING_SECONDS = 300;

const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

/** The type this browser records in (WebM/Opus in Chrome and Firefox, MP4/AAC in Safari). */
function recordingType(): string | undefined {
  return ["audio/webm;codecs=opus", "audio/webm", "audio/mp4", "audio/ogg"].find((t) => MediaRecorder.isTypeSupported?.(t));
}

/**
 * Records a voice note with the microphone (loaded only when the educator starts recording): a timer
 * while recording, stops by itself at 5 minutes; the recording goes to `onRecorded` for replay before saving.
 */
export function VoiceRecorder({ onRecorded, onError }: { onRecorded: (blob: Blob) => void; onError: (message: string) => void }) {
  const [seconds, setSeconds] = useState<number | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<number | undefined>(undefined);

  const stopTracks = () => recorder.current?.stream.getTracks().forEach((t) => t.stop());
  useEffect(
    () => () => {
      window.clearInterval(timer.current);
      if (recorder.current?.state === "recording") recorder.current.stop();
      stopTracks();
    },
    [],
  );

  const stop = () => {
    window.clearInterval(timer.current);
    if (recorder.current?.state === "recording") recorder.current.stop();
  };

  const start = async () => {
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      onError("Could not use the microphone. Allow microphone access, or upload an audio file instead.");
      return;
    }
    const type = recordingType();
    const rec = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    rec.onstop = () => {
      stream.getTracks().forEach((t) => t.stop());
      setSeconds(null);
      onRecorded(new Blob(chunks, { type: (rec.mimeType || type || "audio/webm").split(";")[0] }));
    };
    recorder.current = rec;
    rec.start(1000);
    const started = Date.now();
    setSeconds(0);
    timer.current = window.setInterval(() => {
      const elapsed = Math.floor((Date.now() - started) / 1000);
      setSeconds(elapsed);
      if (elapsed >= MAX_RECORDING_SECONDS) stop();
    }, 250);
  };

  if (seconds === null) {
    return (
      <Button variant="outline" size="sm" onClick={() => void start()}>
        <Mic className="h-4 w-4" aria-hidden="true" />
        Record voice note
      </Button>
    );
  }
  return (
    <div className="flex items-center gap-3">
      <span className="inline-flex items-center gap-2 text-sm font-semibold text-rose-600 dark:text-rose-400">
        <span className="h-2.5 w-2.5 animate-pulse rounded-full bg-rose-500" aria-hidden="true" />
        Recording <span role="timer" aria-label="Recording time" className="font-mono">{clock(seconds)}</span>
        <span className="font-normal text-muted">/ {clock(MAX_RECORDING_SECONDS)}</span>
      </span>
      <Button variant="danger" size="sm" onClick={stop}>
        <Square className="h-4 w-4" aria-hidden="true" />
        Stop recording
      </Button>
    </div>
  );
}
