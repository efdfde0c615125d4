import { ProGate } from '../../components/pro-gate.tsx';
import { MemeDetector } from './components/meme-detector.tsx';

/** Meme detector (Pro): others see the Pro notice, and the server refuses them anyway. */
export function MemesPage() {
  return (
    <ProGate>
      <MemeDetector />
    </ProGate>
  );
}
