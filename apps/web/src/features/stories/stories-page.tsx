import { ProGate } from '../../components/pro-gate.tsx';
import { StoryCreator } from './components/story-creator.tsx';

/** Story creator (Pro): others see the Pro notice, and the server refuses them anyway. */
export function StoriesPage() {
  return (
    <ProGate>
      <StoryCreator />
    </ProGate>
  );
}
