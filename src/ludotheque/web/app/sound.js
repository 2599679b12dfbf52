/**
 * The game page's sounds, made with the Web Audio API (no sound file): a move, a capture, "your
 * turn" and low time. One switch mutes them all, remembered in localStorage. Each sound played is
 * also announced as a `ludotheque:sound` event on `document` (its `detail` is the kind), which
 * the browser tests listen to.
 */

const KEY = "ludotheque.sound";

// Each kind: its notes as [frequency (Hz), start (s), length (s)], its wave and loudness.
const SOUNDS = {
  move: { wave: "triangle", gain: 0.25, notes: [[520, 0, 0.07]] },
  capture: { wave: "square", gain: 0.12, notes: [[330, 0, 0.06], [220, 0.06, 0.1]] },
  turn: { wave: "sine", gain: 0.22, notes: [[660, 0, 0.09], [880, 0.1, 0.12]] },
  lowTime: { wave: "sawtooth", gain: 0.1, notes: [[990, 0, 0.08], [990, 0.16, 0.08], [990, 0.32, 0.08]] },
};

let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

/** Play `kind` (`move`, `capture`, `turn`, `lowTime`) unless muted. */
export function playSound(kind) {
  const sound = SOUNDS[kind];
  if (!sound || !soundOn()) return;
  document.dispatchEvent(new CustomEvent("ludotheque:sound", { detail: kind }));
  try {
    const Audio = window.AudioContext ?? window.webkitAudioContext;
    if (!Audio) return;
    context ??= new Audio();
    if (context.state === "suspended") context.resume().catch(() => {});
    const now = context.currentTime;
    for (const [frequency, start, length] of sound.notes) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = sound.wave;
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(sound.gain, now + start);
      gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(now + start);
      oscillator.stop(now + start + length + 0.02);
    }
  } catch {
    // No audio here (a browser without it, a page not yet clicked): the sound is skipped.
  }
}
