// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from './dialog.tsx';

afterEach(cleanup);

/** A dialog that asks a question over itself when closed, as the composer does during an upload. */
function Asking({ onClosed }: { onClosed: () => void }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Dialog open onClose={() => setAsking(true)} title="Composer" closeLabel="Close composer">
        <input aria-label="Caption" />
      </Dialog>
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title="Abandon?"
        closeLabel="Close question"
        footer={
          <button type="button" onClick={onClosed}>
            Abandon
          </button>
        }
      >
        <p>Sure?</p>
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('lets only the dialog opened last answer Escape, and gives the focus back under it', async () => {
    const user = userEvent.setup();
    const onClosed = vi.fn();
    render(<Asking onClosed={onClosed} />);
    await user.click(screen.getByLabelText('Caption'));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Abandon?' })).toBeTruthy();

    // Escape answers the question alone: the composer stays, its field focused again.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Abandon?' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Composer' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Caption'));
    expect(onClosed).not.toHaveBeenCalled();

    // Tab stays inside the question while it is open.
    await user.keyboard('{Escape}');
    const question = screen.getByRole('dialog', { name: 'Abandon?' });
    for (let step = 0; step < 4; step += 1) {
      await user.tab();
      expect(question.contains(document.activeElement)).toBe(true);
    }
  });

  it('keeps the focus where it is when it renders again with a new onClose', async () => {
    const user = userEvent.setup();
    function Rerendering() {
      const [text, setText] = useState('');
      return (
        <Dialog open onClose={() => setText('')} title="Form" closeLabel="Close">
          <input aria-label="Text" value={text} onChange={(event) => setText(event.target.value)} />
        </Dialog>
      );
    }
    render(<Rerendering />);
    await user.click(screen.getByLabelText('Text'));
    await user.keyboard('abc');
    expect(document.activeElement).toBe(screen.getByLabelText('Text'));
    expect(screen.getByLabelText<HTMLInputElement>('Text').value).toBe('abc');
  });
});
