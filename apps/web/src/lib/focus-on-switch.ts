import { useEffect, useRef } from 'react';

/**
 * Moves focus when a page swaps a view for its edit form and back: the button that was tapped is gone,
 * and focus fell to the page's top, so a keyboard or screen-reader user started over. Focus goes to the
 * element `ids.on` names once `on` turns true (the form's heading), and to `ids.off` once it turns false
 * (the button that opens the form again). Nothing moves on the first render.
 */
export function useFocusOnSwitch(on: boolean, ids: { on: string; off: string }) {
  const was = useRef(on);
  useEffect(() => {
    if (was.current === on) return;
    was.current = on;
    document.getElementById(on ? ids.on : ids.off)?.focus();
  }, [on, ids.on, ids.off]);
}
