import {
  cloneElement,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type FocusEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { nextTooltip, TOOLTIP_TIMING, type TooltipEvent, type TooltipKind, type TooltipState } from './tooltip-state';
import './tooltip.css';

type TriggerProps = { 'aria-describedby'?: string };

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

/**
 * A tooltip for one element (spec sections 4 and 9, WCAG 1.4.13): it
 * appears after the kind's delay when the element is hovered or focused,
 * stays while the pointer is over the element or the tooltip itself, and
 * Escape hides it until the pointer and focus have left. The tooltip is in
 * the server's HTML (hidden), so describe (the default) links it to the
 * element with aria-describedby from the first focus; pass describe={false}
 * when the text only repeats the element's name (it is then hidden from
 * assistive technology). The wrapper span (className) is the positioning
 * box: give it the trigger's placement when the trigger is positioned.
 */
export function Tooltip({
  content,
  kind = 'default',
  describe = true,
  className,
  children,
}: {
  content: ReactNode;
  kind?: TooltipKind;
  describe?: boolean;
  className?: string;
  children: ReactElement<TriggerProps>;
}) {
  const id = useId();
  const [state, setState] = useState<TooltipState>('hidden');
  const [placement, setPlacement] = useState<{ below: boolean; shift: number }>({ below: false, shift: 0 });
  const tip = useRef<HTMLSpanElement>(null);
  const stateRef = useRef<TooltipState>('hidden');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const hover = useRef(false);
  const focus = useRef(false);
  const dismissed = useRef(false);

  const timing = useCallback(() => {
    const t = TOOLTIP_TIMING[kind];
    return prefersReducedMotion() ? { ...t, speed: 0 } : t;
  }, [kind]);

  const send = useCallback(
    (ev: TooltipEvent) => {
      const next = nextTooltip(stateRef.current, timer.current !== null, ev, timing());
      if (next.timer !== 'keep' && timer.current !== null) {
        clearTimeout(timer.current);
        timer.current = null;
      }
      if (typeof next.timer === 'number') {
        timer.current = setTimeout(() => {
          timer.current = null;
          send({ type: 'timer' });
        }, next.timer);
      }
      stateRef.current = next.state;
      setState(next.state);
    },
    [timing],
  );

  const update = useCallback(() => {
    if (!hover.current && !focus.current) dismissed.current = false;
    send({ type: 'want', want: (hover.current || focus.current) && !dismissed.current });
  }, [send]);

  // Escape anywhere hides it (dismissable without moving the pointer or focus).
  const open = state !== 'hidden';
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' && e.key !== 'Esc') return;
      dismissed.current = true;
      send({ type: 'escape' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, send]);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  // Keep it inside the viewport: below the element when there is no room
  // above, shifted sideways near an edge.
  useLayoutEffect(() => {
    if (state !== 'appearing' || !tip.current) return;
    const anchor = tip.current.parentElement!.getBoundingClientRect();
    const r = tip.current.getBoundingClientRect();
    const below = anchor.top - r.height - 8 < 0;
    const center = anchor.left + anchor.width / 2;
    const left = center - r.width / 2;
    const right = center + r.width / 2;
    const vw = document.documentElement.clientWidth;
    const shift = left < 8 ? 8 - left : right > vw - 8 ? vw - 8 - right : 0;
    setPlacement((p) => (p.below === below && p.shift === shift ? p : { below, shift: Math.round(shift) }));
  }, [state]);

  const onFocus = () => {
    focus.current = true;
    update();
  };
  const onBlur = (e: FocusEvent<HTMLSpanElement>) => {
    if (e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget)) return;
    focus.current = false;
    update();
  };

  const trigger = describe
    ? cloneElement(children, {
        'aria-describedby': [children.props['aria-describedby'], id].filter(Boolean).join(' '),
      })
    : children;

  return (
    <span
      className={'tooltip-anchor' + (className ? ' ' + className : '')}
      onMouseEnter={() => {
        hover.current = true;
        update();
      }}
      onMouseLeave={() => {
        hover.current = false;
        update();
      }}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {trigger}
      <span
        ref={tip}
        role="tooltip"
        id={id}
        className={`tooltip tooltip--${kind}${placement.below ? ' is-below' : ''}`}
        data-state={state}
        hidden={state === 'hidden'}
        aria-hidden={describe ? undefined : true}
        style={
          {
            '--tooltip-speed': `${timing().speed}ms`,
            '--tooltip-shift': `${placement.shift}px`,
          } as CSSProperties
        }
      >
        {content}
      </span>
    </span>
  );
}
