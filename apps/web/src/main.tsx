import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useNavigate } from 'react-router';
import { setUnauthorizedHandler } from '@/lib/http';
import { clearData } from '@/lib/data-cache';
import { AppRoutes } from '@/app/router';
import './styles.css';

/** On 401 the stored session is cleared (lib/http) and the user goes to /login without a reload. */
function UnauthorizedBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      clearData();
      navigate('/login');
    });
  }, [navigate]);
  return null;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <UnauthorizedBridge />
      <AppRoutes />
    </BrowserRouter>
  </StrictMode>,
);
