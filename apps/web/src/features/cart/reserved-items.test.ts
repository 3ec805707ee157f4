import { describe, expect, it } from 'vitest';
import {
  clearReservedItems,
  readReservedItems,
  RESERVED_CHANGED,
  RESERVED_KEY,
  writeReservedItems,
} from './reserved-items';

const store = (v: unknown) => localStorage.setItem(RESERVED_KEY, typeof v === 'string' ? v : JSON.stringify(v));

const item = {
  productId: 'p1',
  productName: 'Non-Disclosure Agreement',
  productPrice: 25000,
  productImage: '/uploads/a.png',
  quantity: 2,
  detail: 'Mutual NDA',
  file: null,
  fileName: null,
};

describe('reserved items in localStorage', () => {
  it('reads back what was written', () => {
    writeReservedItems([item]);
    expect(readReservedItems()).toEqual([item]);
  });

  it('tells this window when the reservations change, so the top bar counts them at once', () => {
    let told = 0;
    const listener = () => (told += 1);
    window.addEventListener(RESERVED_CHANGED, listener);
    try {
      writeReservedItems([item]);
      expect(told).toBe(1);
      clearReservedItems();
      expect(told).toBe(2);
    } finally {
      window.removeEventListener(RESERVED_CHANGED, listener);
    }
  });

  it('answers an empty list for nothing, broken JSON or something else than a list', () => {
    expect(readReservedItems()).toEqual([]);
    store('{not json');
    expect(readReservedItems()).toEqual([]);
    store({ productId: 'p1' });
    expect(readReservedItems()).toEqual([]);
  });

  it('skips entries without a product id and entries that are not objects', () => {
    store([null, 5, 'p1', [], { ...item, productId: 7 }, { productName: 'x' }, item]);
    expect(readReservedItems()).toEqual([item]);
  });

  it('repairs readable fields instead of dropping the reservation', () => {
    store([
      {
        productId: 'p2',
        productName: 12,
        productPrice: '30000',
        productImage: null,
        quantity: '3',
        detail: 4,
        file: '/uploads/b.pdf',
        fileName: 'b.pdf',
        extra: 'dropped',
      },
      { productId: 'p3', productPrice: 'abc', quantity: 0 },
      { productId: 'p4', productPrice: '1e400', quantity: 11 },
      { productId: 'p5', productPrice: null, quantity: 2.5, detail: null },
      { productId: 'p6', quantity: true },
    ]);
    const read = readReservedItems();
    expect(read).toEqual([
      {
        productId: 'p2',
        productName: '',
        productPrice: 30000,
        productImage: '',
        quantity: 3,
        detail: null,
        file: '/uploads/b.pdf',
        fileName: 'b.pdf',
      },
      { productId: 'p3', productName: '', productPrice: 0, productImage: '', quantity: 1 },
      { productId: 'p4', productName: '', productPrice: 0, productImage: '', quantity: 1 },
      { productId: 'p5', productName: '', productPrice: 0, productImage: '', quantity: 1, detail: null },
      { productId: 'p6', productName: '', productPrice: 0, productImage: '', quantity: 1 },
    ]);
    expect(Object.keys(read[0])).not.toContain('extra');
  });
});
