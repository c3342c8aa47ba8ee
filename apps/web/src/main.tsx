import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createServices } from './app/App.tsx';
import './app/global.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App services={createServices()} />
    </StrictMode>,
  );
}
