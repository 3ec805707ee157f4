import { describe, expect, it } from 'vitest';
import { pageDataUrl } from '@/early';
import { filtersToSearch, isFiltered, NO_FILTERS, productsUrlOf, readFilters } from './product-filters';

describe('/products filters in the address', () => {
  it('reads the search, area and price range, an older area name as the area it names', () => {
    expect(readFilters('?q=nda&area=Contracts+and+Commercial&min=1000&max=50000')).toEqual({
      q: 'nda',
      area: 'Contracts and Commercial',
      min: '1000',
      max: '50000',
    });
    expect(readFilters('?area=Contract%20Law').area).toBe('Contracts and Commercial');
    expect(readFilters('?area=Employment%20Law').area).toBe('Employment and Labour');
    // Unknown: kept, so the API names the problem.
    expect(readFilters('?area=Cooking').area).toBe('Cooking');
    expect(readFilters('')).toEqual(NO_FILTERS);
    expect(readFilters('?tab=x')).toEqual(NO_FILTERS);
  });

  it('writes only the filters set, in one order, prices kept to their digits', () => {
    expect(filtersToSearch(NO_FILTERS)).toBe('');
    expect(filtersToSearch({ q: '  trade   mark ', area: '', min: '', max: '' })).toBe('?q=trade+mark');
    expect(filtersToSearch({ q: '', area: 'Intellectual Property', min: '₦1,000', max: '20 000' })).toBe(
      '?area=Intellectual+Property&min=1000&max=20000',
    );
    expect(filtersToSearch({ q: 'a&b=c', area: 'Tax Practise', min: '5', max: '' })).toBe(
      '?q=a%26b%3Dc&area=Tax+Practise&min=5',
    );
  });

  it('survives a round trip through the address', () => {
    const f = { q: 'employment contract', area: 'Employment and Labour', min: '10000', max: '90000' };
    expect(readFilters(filtersToSearch(f))).toEqual(f);
    expect(isFiltered(readFilters(filtersToSearch(f)))).toBe(true);
    expect(isFiltered(readFilters(''))).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, q: '  ' })).toBe(false);
  });

  it('asks the API for the same URL as the server render and the early script do', () => {
    const search = '?max=9000&q=nda&area=Contract+Law&utm_source=x&min=';
    expect(productsUrlOf(search)).toBe('/product-api/products?q=nda&area=Contract+Law&max=9000');
    expect(pageDataUrl('/products', null, search)).toBe(productsUrlOf(search));
    expect(productsUrlOf('')).toBe('/product-api/products');
    expect(productsUrlOf('?q=%20')).toBe('/product-api/products');
    expect(pageDataUrl('/products', null)).toBe('/product-api/products');
  });
});
